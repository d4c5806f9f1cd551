// The case list's one Web Worker: the CSV export or the search in reports, as the page asks. One worker entry, not
// two: two worker entries sharing modules get a split chunk the federation runtime cannot name (contenthash).
import { runExport, type ExportMessage, type ExportRequest } from './export-job';
import { runSearch, type SearchMessage, type SearchRequest } from './search-job';

/** The worker's global scope, as much as this worker uses (the webworker lib would retype every window). */
declare const self: {
  onmessage: ((event: MessageEvent<ExportRequest | SearchRequest>) => void) | null;
  postMessage(message: ExportMessage | SearchMessage): void;
};

self.onmessage = ({ data }) => {
  const post = (message: ExportMessage | SearchMessage) => self.postMessage(message);
  void (data.job === 'search' ? runSearch(data, post) : runExport(data, post));
};
