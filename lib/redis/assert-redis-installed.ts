import { assertOptionalPeers } from '../peers/assert-optional-peers';

// Imported first by the entry, so a missing peer fails with the package to install, not `Cannot find module`.
assertOptionalPeers({ entry: 'protolink/redis', peers: ['redis'] });
