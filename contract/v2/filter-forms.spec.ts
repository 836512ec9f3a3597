import { defineFilterFormTests } from '../shared/filter-forms.ts';
import { eachRun } from '../fixtures/api-test.ts';

eachRun(() => defineFilterFormTests('v2'));
