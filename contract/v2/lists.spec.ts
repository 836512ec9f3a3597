import { defineListTests, defineReadTests } from '../shared/list-tests.ts';
import { eachRun } from '../api-test.ts';

eachRun(() => {
  defineListTests('v2');
  defineReadTests('v2');
});
