import { spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { freePort } from './ports';
import { onPath } from './go-install';
import { stopProcess } from '#lib/supervision';

/**
 * coturn (Debian's `coturn` package, binary `turnserver`) on loopback for tests and `npm start
 * -- --turn`: the TURN REST API scheme (`--use-auth-secret --static-auth-secret`), the same shared
 * secret the API mints room credentials with; UDP and TCP on one port (no TLS: a test has no
 * certificate), loopback peers allowed (both browsers' relay addresses are 127.0.0.1), no CLI, no
 * daemon, its own temporary directory (log, pid, user database), removed when stopped.
 */
export interface RunningTurnServer {
  port: number;
  /** The URLs ROOM_TURN_URLS lists: `turn:127.0.0.1:<port>?transport=udp` and `…=tcp`. */
  urls: string[];
  stop: () => Promise<void>;
}

export const TURN_BIN = process.env.TURNSERVER_BIN ?? onPath('turnserver') ?? '/usr/bin/turnserver';

export function turnServerAvailable(): boolean {
  return fs.existsSync(TURN_BIN);
}

/** Starts coturn and waits until its TCP listener accepts. `port` reuses a fixed port (a restart in a test). */
export async function startTurnServer(opts: {
  secret: string;
  port?: number;
  realm?: string;
}): Promise<RunningTurnServer> {
  if (!turnServerAvailable())
    throw new Error(`coturn is not installed (${TURN_BIN} missing): apt-get install -y coturn, or set TURNSERVER_BIN`);
  const port = opts.port ?? (await freePort());
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'jobfair-turn-'));
  // A relay port range of its own per instance, so parallel test files do not collide.
  const minPort = 20000 + Math.floor(Math.random() * 400) * 100;
  const args = [
    '-n', // no configuration file
    '--listening-ip=127.0.0.1',
    '--relay-ip=127.0.0.1',
    `--listening-port=${port}`,
    `--min-port=${minPort}`,
    `--max-port=${minPort + 99}`,
    '--use-auth-secret',
    `--static-auth-secret=${opts.secret}`,
    `--realm=${opts.realm ?? 'jobfair.test'}`,
    '--fingerprint',
    '--allow-loopback-peers',
    '--no-tls',
    '--no-dtls',
    '--no-cli',
    '--no-stdout-log',
    `--log-file=${path.join(dir, 'turn.log')}`,
    `--pidfile=${path.join(dir, 'turn.pid')}`,
    `--userdb=${path.join(dir, 'turndb')}`,
  ];
  const child = spawn(TURN_BIN, args, { stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  let exited = false;
  child.stdout?.on('data', (d) => (output += d));
  child.stderr?.on('data', (d) => (output += d));
  child.once('exit', () => (exited = true));
  const deadline = Date.now() + 15_000;
  for (;;) {
    if (exited) throw new Error(`turnserver exited during start-up:\n${output.slice(-2000)}`);
    if (await accepts(port)) break;
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`turnserver did not listen on ${port} within 15 s:\n${output.slice(-2000)}`);
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  return {
    port,
    urls: [`turn:127.0.0.1:${port}?transport=udp`, `turn:127.0.0.1:${port}?transport=tcp`],
    stop: async () => {
      await stopProcess(child, 'SIGTERM', 5000);
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

function accepts(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const s = net.connect({ port, host: '127.0.0.1' });
    s.once('connect', () => {
      s.destroy();
      resolve(true);
    });
    s.once('error', () => resolve(false));
  });
}
