import { McpServer, Server } from '@modelcontextprotocol/server';
import { provideSdkClasses } from './sdkLine.js';

// Loaded for this effect by the root entry (src/index.ts): attach tells a user's server apart by these classes.
provideSdkClasses({ McpServer, Server });
