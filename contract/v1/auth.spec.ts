import { defineAuthTests } from '../shared/auth-tests.ts';
import { eachRun } from '../api-test.ts';

eachRun(() => {
  defineAuthTests('v1');
});
