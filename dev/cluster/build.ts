import path from 'node:path';
import { portInUse } from '../postgres-server';
import { freePort } from '../ports';
import type { ClusterContext } from './context';
import { buildDist } from './programs';

const ROOT = path.resolve(__dirname, '..', '..');

/** The load balancer's port: the one asked for (it must be free) or a free one. */
export async function chooseLoadBalancerPort(ctx: ClusterContext): Promise<void> {
  const { opts } = ctx;
  ctx.lbPort = opts.port ?? (await freePort());
  if (opts.port && (await portInUse(opts.port))) throw new Error(`port ${opts.port} (the load balancer) is in use`);
  ctx.base = `http://127.0.0.1:${ctx.lbPort}`;
}

/** 1. The compiled build: the one given, else built now into dist/cluster. */
export function compiledBuild(ctx: ClusterContext): void {
  if (ctx.opts.dist) {
    ctx.dist = ctx.opts.dist;
    return;
  }
  ctx.dist = path.join(ROOT, 'dist', 'cluster');
  buildDist(ctx.dist, ctx.log);
}
