import { defineListTests, defineReadTests } from '../shared/list-tests.ts';

defineListTests('v1');
defineReadTests('v1');
