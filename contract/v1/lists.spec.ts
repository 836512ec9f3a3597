import { defineListTests, defineReadTests } from '../shared/list-tests.ts';
import { eachRun } from '../api-test.ts';

eachRun(() => {
  defineListTests('v1');
  defineReadTests('v1');
});
