// The voice disguise, off the page's main thread: the vocoder's work for a long recording (seconds on a phone)
// would otherwise come as slices between which the page must wait.
import { runDisguiseJob, type DisguiseMessage, type DisguiseRequest } from './voice-disguise-job';

/** The worker's global scope, as much as this worker uses (the webworker lib would retype every window). */
declare const self: {
  onmessage: ((event: MessageEvent<DisguiseRequest>) => void) | null;
  postMessage(message: DisguiseMessage, transfer?: Transferable[]): void;
};

self.onmessage = ({ data }) => void runDisguiseJob(data, (message, transfer) => self.postMessage(message, transfer));
