import { defineListTests, defineReadTests } from '../shared/list-tests.ts';
import { eachRun } from '../fixtures/api-test.ts';

eachRun(() => {
  defineListTests('v1');
  defineReadTests('v1');
});
