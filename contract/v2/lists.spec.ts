import { defineListTests, defineReadTests } from '../shared/list-tests.ts';
import { eachRun } from '../fixtures/api-test.ts';

eachRun(() => {
  defineListTests('v2');
  defineReadTests('v2');
});
