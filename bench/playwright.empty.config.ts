// The contract suite's own configuration with one no-op test: what any run costs before the first request.
import { defineConfig } from '@playwright/test';
import base from '../playwright.config.ts';

export default defineConfig({ ...base, testDir: 'empty', projects: [{ name: 'empty' }], reporter: 'dot', globalSetup: undefined });
