// setup() of the scripts that send as the operator (send, rate-limit, size-limits): the safety check on the
// consolidated options, the run's send body shape, and dialogs of their own to send to.
import { prepareOperatorDialogs } from './dialogs.ts';
import { guardSetup } from './guard.ts';
import { sendBodyTemplate } from './send-body.ts';

export interface OperatorSetup {
  sendBody: string;
  dialogs: string[];
}

export function operatorSetup(dialogs: number): OperatorSetup {
  guardSetup();
  const sendBody = sendBodyTemplate();
  return { sendBody, dialogs: prepareOperatorDialogs(dialogs) };
}
