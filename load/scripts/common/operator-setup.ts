// setup() of the scripts that send as the operator (send, rate-limit, size-limits): the safety check and the
// preflight on the consolidated options, the run's send body shape, and dialogs of their own to send to. A run that
// sends nothing (a list-only ladder, a runner whose segment does not search) stops after the guard.
import { prepareOperatorDialogs } from './dialogs.ts';
import { guardSetup } from './guard.ts';
import { sendBodyTemplate } from './send-body.ts';

export interface OperatorSetup {
  sendBody: string;
  dialogs: string[];
}

export function operatorSetup(dialogs: number): OperatorSetup {
  guardSetup();
  if (dialogs === 0) return { sendBody: '', dialogs: [] };
  const sendBody = sendBodyTemplate();
  return { sendBody, dialogs: prepareOperatorDialogs(dialogs) };
}
