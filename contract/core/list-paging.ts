// How the target pages its lists where the spec says nothing, settled once in global setup and read by every list
// search of the run: which PageNumber the first page has (§4.1: not shown; 0 or 1), and how many records a search
// asks a page to hold (§8.1 observed per_page 40; §8.3: the maximum is not shown, and a vendor may refuse more).
// Global setup reads it (run-setup.ts listPagingOf).

export interface ListPaging {
  firstPage: 0 | 1;
  /** PageCount the searches ask for: 40, or the most the vendor serves when it refuses or caps 40. */
  pageSize: number;
}

/** What a run assumes before it has asked: the spec's observed 40 a page, pages numbered from 1. */
export const USUAL_PAGING: ListPaging = { firstPage: 1, pageSize: 40 };

export const PAGING_ENV = 'DIALOG_CONTRACT_LIST_PAGING';

/** The run's paging, as global setup settled it (workers inherit it); the usual one outside a run. */
export function runListPaging(): ListPaging {
  const text = process.env[PAGING_ENV];
  return text ? (JSON.parse(text) as ListPaging) : USUAL_PAGING;
}
