// The contract suite's own configuration with one no-op test: what any run costs before the first request. Its
// timing is journalled as the suite's is (contract/reporters/run-timing.ts), so each part compares.
import { defineConfig } from '@playwright/test';
import base from '../playwright.config.ts';

export default defineConfig({
  ...base,
  testDir: 'empty',
  projects: [{ name: 'empty' }],
  reporter: [['dot'], ['../contract/reporters/run-timing.ts']],
  globalSetup: './empty-setup.ts',
});
