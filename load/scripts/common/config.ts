// The run's settings, read from __ENV by the one configuration parser (config/suite-config.ts): the target and
// credentials are required, everything else only where a script uses it (needBotId). A problem throws in the init
// context, which stops k6 with the one-line message. Script-local knobs (rates, durations) stay in the scripts.
import { needBotId, parseLoadConfig, secretsOf } from '../../../config/suite-config.ts';

export const config = parseLoadConfig(__ENV);

/** Values that must never appear in a report, a log line or a check name. */
export const secrets = secretsOf(config);

/** BOT_ID, for the scripts that create dialogs; they call it in their init context, so a missing one stops k6 there. */
export const botId = () => needBotId(config);
