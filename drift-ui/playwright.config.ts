// The browser checks of the project's pages: drift.html, history.html and the load page, rendered and used in
// Debian's Chromium (never a downloaded browser). Its own config keeps the API suite browser-free.
import { defineConfig } from '@playwright/test';

/** Debian's chromium; CHROMIUM_PATH for another place (Ubuntu's chromium-browser, a distribution's own build). */
export const CHROMIUM = process.env.CHROMIUM_PATH?.trim() || '/usr/bin/chromium';

export default defineConfig({
  testDir: '.',
  testMatch: '*.spec.ts',
  outputDir: '../test-results/drift-ui',
  retries: 0,
  reporter: [['list'], ['./skip-reasons.ts']],
  use: {
    browserName: 'chromium',
    headless: true,
    launchOptions: {
      executablePath: CHROMIUM,
      // The machine's network is closed: without these Chromium keeps trying to reach Google's services.
      args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'],
    },
  },
});
