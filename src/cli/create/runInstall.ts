import { systemClock, type Clock } from '../../_internal/clock.js';
import { spawn } from 'node:child_process';
import { CliError } from '../CliError.js';
import type { CliIo } from '../types.js';

const FRAMES = ['⠋', '⠙', '⠹', '⠸', '⠼', '⠴', '⠦', '⠧', '⠇', '⠏'];

/**
 * Runs `npm install` in `dir`, showing progress on stderr: a spinner with elapsed time on a terminal,
 * a line every 15 s otherwise. On failure, prints npm's last output lines and throws.
 */
export async function runInstall(dir: string, io: CliIo, fusion?: string, clock: Clock = systemClock): Promise<void> {
  const started = clock.now();
  const seconds = (): string => `${((clock.now() - started) / 1000).toFixed(1)}s`;
  const tty = io.stderr.isTTY === true;
  io.stderr.write('Installing dependencies (npm install)…\n');
  let frame = 0;
  const timer = clock.setInterval(
    () => {
      if (tty) io.stderr.write(`\r${FRAMES[frame++ % FRAMES.length]} npm install ${seconds()}`);
      else io.stderr.write(`… still installing (${seconds()})\n`);
    },
    tty ? 100 : 15_000,
  );
  const output: string[] = [];
  const collect = (chunk: Buffer): void => {
    output.push(
      ...chunk
        .toString('utf8')
        .split('\n')
        .filter((l) => l.trim() !== ''),
    );
    if (output.length > 200) output.splice(0, output.length - 200);
  };
  let code: number | null;
  try {
    code = await new Promise<number | null>((resolvePromise, reject) => {
      const child = spawn('npm', ['install', '--no-audit', '--no-fund'], {
        cwd: dir,
        env: { ...io.env },
        stdio: ['ignore', 'pipe', 'pipe'],
        shell: process.platform === 'win32',
      });
      child.stdout.on('data', collect);
      child.stderr.on('data', collect);
      child.on('error', (error) =>
        reject(
          new CliError(
            'CLI_NPM_MISSING',
            `Could not start npm (${error.message}); install Node.js with npm, or pass --no-install and install yourself.`,
          ),
        ),
      );
      child.on('close', resolvePromise);
    });
  } finally {
    timer.cancel();
    if (tty) io.stderr.write('\r\x1b[K');
  }
  if (code !== 0) {
    io.stderr.write(`${output.slice(-30).join('\n')}\n`);
    const fusionMissing =
      fusion !== undefined &&
      output.some((l) => l.includes('mcp-fusion') && /E404|ETARGET|ENOENT|No matching version|not found/i.test(l));
    const hint = fusionMissing
      ? ` npm could not get mcp-fusion ${fusion}: create the project again with --fusion <spec> (a version range, a path to a .tgz from npm pack, or file:<dir>).`
      : '';
    throw new CliError(
      'CLI_INSTALL_FAILED',
      `npm install failed (exit ${code}) in ${dir}; fix the problem above, then run \`npm install\` there.${hint}`,
      { dir },
    );
  }
  const summary = output.filter((l) => /^(added|up to date|changed)/.test(l)).pop();
  io.stderr.write(`✔ Installed in ${seconds()}${summary === undefined ? '' : ` (${summary})`}\n`);
}
