import { defineAuthTests } from '../shared/auth-tests.ts';
import { eachRun } from '../fixtures/api-test.ts';

eachRun(() => {
  defineAuthTests('v1');
});
