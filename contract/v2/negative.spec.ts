import { defineNegativeTests } from '../shared/negative-tests.ts';
import { eachRun } from '../fixtures/api-test.ts';

eachRun(() => {
  defineNegativeTests('v2');
});
