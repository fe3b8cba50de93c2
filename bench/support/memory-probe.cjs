/**
 * Preloaded (`node --require`) into an API process by bench/api-memory.ts: on SIGUSR2 it writes
 * the process's memory breakdown and the packages it has loaded (with the size of their loaded
 * files) to MEMORY_PROBE_FILE, after a full GC when --expose-gc is on. Not part of the service.
 */
const fs = require('node:fs');
const Module = require('node:module');

process.on('SIGUSR2', () => {
  if (global.gc) global.gc();
  const packages = {};
  for (const file of Object.keys(Module._cache)) {
    const m = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(
      file.split('node_modules/').length > 1 ? file.slice(file.lastIndexOf('node_modules/')) : '',
    );
    const name = m ? m[1] : '(ours)';
    let size = 0;
    try {
      size = fs.statSync(file).size;
    } catch {
      /* virtual */
    }
    const p = (packages[name] ??= { files: 0, bytes: 0 });
    p.files += 1;
    p.bytes += size;
  }
  const u = process.memoryUsage();
  fs.writeFileSync(process.env.MEMORY_PROBE_FILE, JSON.stringify({ memoryUsage: u, packages }));
});
