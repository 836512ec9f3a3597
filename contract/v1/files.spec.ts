import { defineFileTests } from '../shared/file-tests.ts';
import { eachRun } from '../api-test.ts';

eachRun(() => {
  defineFileTests('v1');
});
