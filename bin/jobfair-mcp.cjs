#!/usr/bin/env node
// `npx jobfair-mcp`: the stdio MCP bridge (apps/api/src/platform/mcp/stdio-bridge.ts), run through tsx like every script here.
require('tsx/cjs');
require('../apps/api/src/platform/mcp/stdio-bridge.ts')
  .runStdioBridge()
  .catch((err) => {
    process.stderr.write(`jobfair-mcp: ${err && err.message ? err.message : String(err)}\n`);
    process.exit(1);
  });
