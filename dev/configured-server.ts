import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { stopProcess } from '#lib/supervision';

export interface RunningConfiguredServer {
  child: ChildProcess;
  /** The server's last 200 kB of output (for a failing test's message). */
  output: () => string;
  stop: () => Promise<void>;
}

/**
 * A server run from a binary with a YAML file of configuration (LiveKit, Jaeger): the file in a
 * temporary directory readable by us only, the server's output kept, ready once `ready()` answers
 * true. Throws with its last output when it exits during start-up or is not ready within
 * `timeoutMs`; stopping it (SIGTERM, then SIGKILL after 5 s) removes the directory.
 */
export async function startConfiguredServer(o: {
  name: string;
  bin: string;
  args: (configFile: string) => string[];
  yaml: string;
  /** In its own process group: a Ctrl-C in the terminal reaches only the supervisor, which stops it in order. */
  detached?: boolean;
  timeoutMs: number;
  ready: () => Promise<boolean>;
}): Promise<RunningConfiguredServer> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), `jobfair-${o.name}-`));
  const configFile = path.join(dir, `${o.name}.yaml`);
  fs.writeFileSync(configFile, o.yaml, { mode: 0o600 });
  const child = spawn(o.bin, o.args(configFile), { stdio: ['ignore', 'pipe', 'pipe'], detached: o.detached ?? false });
  let output = '';
  let exited = false;
  const keep = (d: Buffer) => {
    output = (output + d.toString()).slice(-200_000);
  };
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);
  child.once('exit', () => (exited = true));
  const stop = async (signal: NodeJS.Signals) => {
    await stopProcess(child, signal, 5000);
    fs.rmSync(dir, { recursive: true, force: true });
  };
  const deadline = Date.now() + o.timeoutMs;
  for (;;) {
    if (exited) {
      fs.rmSync(dir, { recursive: true, force: true });
      throw new Error(`${o.name} exited during start-up:\n${output.slice(-2000)}`);
    }
    if (await o.ready().catch(() => false)) break;
    if (Date.now() > deadline) {
      await stop('SIGKILL');
      throw new Error(`${o.name} did not answer within ${o.timeoutMs / 1000} s:\n${output.slice(-2000)}`);
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  return { child, output: () => output, stop: () => stop('SIGTERM') };
}
