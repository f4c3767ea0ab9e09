import { assertOptionalPeers } from '../peers/assert-optional-peers';

/**
 * Checks that the optional NestJS peer dependencies can be loaded, so `protolink/nest` fails with the fix
 * instead of a bare module-not-found error. `protolink` itself never needs them.
 *
 * @throws ToolInputError naming the packages to install.
 */
export function assertNestInstalled(resolve: (id: string) => string = require.resolve): void {
  assertOptionalPeers({ entry: 'protolink/nest', peers: ['@nestjs/common', '@nestjs/core'], resolve });
}

assertNestInstalled();
