import { assertOptionalPeers } from '../peers/assert-optional-peers';

// Imported first by the entry, so a missing peer fails with the packages to install, not `Cannot find module`.
assertOptionalPeers({ entry: 'protolink/openai-agents', peers: ['@openai/agents'] });
