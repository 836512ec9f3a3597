import { test } from '@playwright/test';

// The fixed start-up floor of a Playwright run: config, simulator (webServer), one worker, nothing to test.
test('does nothing', () => {});
