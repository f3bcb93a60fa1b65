/** @type {import('jest').Config} */
module.exports = {
	testEnvironment: 'node',
	roots: ['<rootDir>/test', '<rootDir>/nodes', '<rootDir>/credentials'],
	testMatch: ['**/*.test.ts'],
	// Queue mode needs PostgreSQL and Redis: `npm run test:queue` runs those tests.
	testPathIgnorePatterns: ['/node_modules/', '<rootDir>/test/queue/'],
	transform: {
		'^.+\\.ts$': ['ts-jest', { diagnostics: false }],
	},
	testTimeout: 120000,
	maxWorkers: 2,
};
