import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { defaultCacheDir } from '#dev/temporal-server';

/**
 * deploy/: the Kubernetes manifests decode strictly into the official API types (a Go validator
 * built from k8s.io/api, cached per machine like the Temporal CLI; docs/decisions/0153), and they
 * say what the README's scaling section promises: probes on /healthz and /readyz, an HPA on the
 * API, KEDA's Temporal scaler on the worker, the same image running node on compiled output.
 */
const ROOT = path.resolve(__dirname, '..', '..');
const DEPLOY = path.join(ROOT, 'deploy');
const manifests = fs
  .readdirSync(DEPLOY)
  .filter((f) => f.endsWith('.yaml'))
  .map((f) => path.join(DEPLOY, f));

function validator(): string {
  const src = path.join(DEPLOY, 'validate');
  const hash = createHash('sha256');
  for (const f of ['go.mod', 'go.sum', 'main.go']) hash.update(fs.readFileSync(path.join(src, f)));
  const bin = path.join(
    defaultCacheDir(process.env.CACHE_DIR),
    `kube-validate-${hash.digest('hex').slice(0, 12)}`,
    'validate',
  );
  if (fs.existsSync(bin)) return bin;
  fs.mkdirSync(path.dirname(bin), { recursive: true });
  const r = spawnSync('go', ['build', '-o', bin, '.'], {
    cwd: src,
    encoding: 'utf8',
    env: { ...process.env, CGO_ENABLED: '0' },
  });
  if (r.error) throw new Error(`Go is needed to build the manifest validator (deploy/validate): ${r.error.message}`);
  if (r.status !== 0) throw new Error(`go build deploy/validate failed:\n${r.stderr}`);
  return bin;
}

const docs = (file: string) =>
  fs
    .readFileSync(path.join(DEPLOY, file), 'utf8')
    .split(/\n---/)
    .filter((d) => /^kind:/m.test(d));

describe('deploy/ Kubernetes manifests', () => {
  let bin: string;
  beforeAll(() => {
    bin = validator();
  }, 600_000);

  it('decode strictly into the Kubernetes API types (and KEDA ScaledObject fields)', () => {
    const r = spawnSync(bin, manifests, { encoding: 'utf8' });
    expect(r.stdout).toMatch(/\n(\d+) documents, 0 invalid\n$/);
    expect(r.status).toBe(0);
  });

  it('refuses a misspelt field, a wrong type and an unknown kind', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'jobfair-deploy-'));
    const bad = path.join(dir, 'bad.yaml');
    const api = fs.readFileSync(path.join(DEPLOY, 'api.yaml'), 'utf8');
    fs.writeFileSync(
      bad,
      `${api.replace('periodSeconds: 5', 'periodSecnds: 5').replace('minReplicas: 2', 'minReplicas: two')}\n---\napiVersion: ` +
        `v1\nkind: Pod2\nmetadata: { name: x }\n---\napiVersion: monitoring.coreos.com/v1\nkind: PrometheusRule\n` +
        'metadata: { name: x }\nspec:\n  groups:\n    - name: g\n      rules:\n        - alert: A\n          expresion: up\n',
    );
    const r = spawnSync(bin, [bad], { encoding: 'utf8' });
    fs.rmSync(dir, { recursive: true, force: true });
    expect(r.status).toBe(1);
    expect(r.stdout).toContain('unknown field "periodSecnds"');
    expect(r.stdout).toMatch(/HorizontalPodAutoscaler: .*minReplicas/);
    expect(r.stdout).toContain('unknown kind v1 Pod2');
    expect(r.stdout).toMatch(/PrometheusRule: .*unknown field "expresion"/);
  });

  it('probe /healthz and /readyz, autoscale the API on CPU and the worker on the Temporal task queue', () => {
    const [apiDeployment, , hpa] = docs('api.yaml');
    expect(apiDeployment).toMatch(/livenessProbe:\s+httpGet: \{ path: \/healthz/);
    expect(apiDeployment).toMatch(/readinessProbe:\s+httpGet: \{ path: \/readyz/);
    // The same command as the Dockerfile's CMD, flags included (decision 0231).
    const cmd = /^CMD (\[.*\])$/m.exec(fs.readFileSync(path.join(DEPLOY, '..', 'Dockerfile'), 'utf8'))![1];
    expect(cmd).toBe('["node", "--max-semi-space-size=8", "dist/apps/api/src/server.js"]');
    expect(apiDeployment).toContain(`command: ${cmd}`);
    expect(hpa).toMatch(/kind: HorizontalPodAutoscaler[\s\S]*name: jobfair-api/);
    const [workerDeployment, scaled] = docs('worker.yaml');
    expect(workerDeployment).toContain('command: ["node", "dist/apps/worker/src/main.js"]');
    expect(scaled).toMatch(
      /kind: ScaledObject[\s\S]*name: jobfair-worker[\s\S]*type: temporal[\s\S]*taskQueue: jobfair/,
    );
    const images = manifests.flatMap((f) => [...fs.readFileSync(f, 'utf8').matchAll(/image: (\S+)/g)].map((m) => m[1]));
    // One image of ours everywhere; the interview room's TURN server (turn.yaml) is coturn's own.
    expect(new Set(images.filter((i) => !i.startsWith('coturn/'))).size).toBe(1);
    expect(images.filter((i) => i.startsWith('coturn/'))).toEqual(['coturn/coturn:4.6.3']);
  });

  it('roll the worker as a Worker Deployment version whose build id is the image tag', () => {
    const [workerDeployment] = docs('worker.yaml');
    const tag = /image: ghcr\.io\/example\/jobfair:(\S+)/.exec(workerDeployment)![1];
    expect(workerDeployment).toContain(`app.kubernetes.io/version: "${tag}"`);
    expect(workerDeployment).toMatch(
      /name: WORKER_BUILD_ID\s+valueFrom: \{ fieldRef: \{ fieldPath: "metadata\.labels\['app\.kubernetes\.io\/version'\]" \} \}/,
    );
    expect(workerDeployment).toMatch(/rollingUpdate: \{ maxSurge: "100%", maxUnavailable: 0 \}/);
    const scaled = docs('worker.yaml')[1];
    expect(scaled).toContain('workerDeploymentName: jobfair');
    expect(scaled).toContain(`workerDeploymentBuildId: "${tag}"`);
  });
});
