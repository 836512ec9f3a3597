import { defineListTests, defineReadTests } from '../shared/list-tests.ts';

defineListTests('v2');
defineReadTests('v2');
