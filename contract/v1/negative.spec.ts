import { defineNegativeTests } from '../shared/negative-tests.ts';

defineNegativeTests('v1');
