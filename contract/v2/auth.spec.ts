import { defineAuthTests } from '../shared/auth-tests.ts';

defineAuthTests('v2');
