import { defineNegativeTests } from '../shared/negative-tests.ts';
import { eachRun } from '../api-test.ts';

eachRun(() => {
  defineNegativeTests('v2');
});
