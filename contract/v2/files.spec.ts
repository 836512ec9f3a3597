import { defineFileTests } from '../shared/file-tests.ts';

defineFileTests('v2');
