/** @type {import('jest').Config} */
module.exports = {
  testEnvironment: 'node',
  roots: [
    '<rootDir>/test',
    '<rootDir>/lib',
    '<rootDir>/dev',
    '<rootDir>/domain',
    '<rootDir>/apps',
    '<rootDir>/workflows',
    '<rootDir>/activities',
    '<rootDir>/db',
  ],
  testMatch: ['**/*.test.ts'],
  transform: {
    '^.+\\.ts$': ['ts-jest', { isolatedModules: true, tsconfig: 'tsconfig.json' }],
    // cookie@2 (used by fastify's inject) ships ESM only; jest on Node 22 cannot require(esm), so compile it to CommonJS.
    // Same for the Scalar API reference plugin (/docs/api) and the ESM-only modules it imports.
    '/node_modules/(cookie|@scalar/[^/]+|github-slugger)/.+\\.js$': [
      'ts-jest',
      { isolatedModules: true, tsconfig: { allowJs: true, module: 'commonjs' } },
    ],
  },
  transformIgnorePatterns: ['/node_modules/(?!(cookie|@scalar/[^/]+|github-slugger)/)'],
  testTimeout: 60_000,
  // Each file brings up its own worker and database; two at a time fits a 2-core machine.
  maxWorkers: 2,
};
