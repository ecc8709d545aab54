import { completionComplete } from './completionComplete.js';
import { loggingSetLevel } from './loggingSetLevel.js';
import { promptsGet } from './promptsGet.js';
import { promptsList } from './promptsList.js';
import { resourcesDirectoryRead } from './resourcesDirectoryRead.js';
import { resourcesList } from './resourcesList.js';
import { resourcesRead } from './resourcesRead.js';
import { resourcesSubscribe } from './resourcesSubscribe.js';
import { resourcesTemplatesList } from './resourcesTemplatesList.js';
import { resourcesUnsubscribe } from './resourcesUnsubscribe.js';
import { skillsGet } from './skillsGet.js';
import { skillsList } from './skillsList.js';
import { tasksCancel } from './tasksCancel.js';
import { tasksGet } from './tasksGet.js';
import { tasksList } from './tasksList.js';
import { tasksResult } from './tasksResult.js';
import { tasksUpdate } from './tasksUpdate.js';
import { toolsCall } from './toolsCall.js';
import { toolsList } from './toolsList.js';

/**
 * Every MCP method a runtime can answer, in the order they are installed. The only place that lists them:
 * `wireRuntime` installs each whose `needs` holds for the server, through its one wrapper (the span, the
 * request context's adoption), so a new method is one file and one entry here.
 * @see docs/contributing.md
 */
export const methodList = [
  loggingSetLevel,
  toolsList,
  toolsCall,
  promptsList,
  promptsGet,
  resourcesList,
  resourcesTemplatesList,
  resourcesRead,
  completionComplete,
  resourcesSubscribe,
  resourcesUnsubscribe,
  skillsList,
  skillsGet,
  resourcesDirectoryRead,
  tasksGet,
  tasksList,
  tasksResult,
  tasksCancel,
  tasksUpdate,
] as const;
