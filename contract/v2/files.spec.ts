import { defineFileTests } from '../shared/file-tests.ts';
import { eachRun } from '../fixtures/api-test.ts';

eachRun(() => {
  defineFileTests('v2');
});
