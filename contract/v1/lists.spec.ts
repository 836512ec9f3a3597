import { defineListTests } from '../shared/list-tests.ts';

defineListTests('v1');
