import { ToolInputError } from '../errors/tool-input-error';

const NEST_PACKAGES = ['@nestjs/common', '@nestjs/core'] as const;

/**
 * Checks that the optional NestJS peer dependencies can be loaded, so `protolink/nest` fails with the fix
 * instead of a bare module-not-found error. `protolink` itself never needs them.
 *
 * @throws ToolInputError naming the packages to install.
 */
export function assertNestInstalled(resolve: (id: string) => string = require.resolve): void {
  const missing = NEST_PACKAGES.filter((name) => {
    try {
      resolve(name);
      return false;
    } catch {
      return true;
    }
  });
  if (missing.length > 0) {
    throw new ToolInputError(
      `protolink/nest needs the optional peer dependencies ${NEST_PACKAGES.join(' and ')}, and ${missing.join(' and ')} ` +
        `could not be loaded. Install them with: npm install ${NEST_PACKAGES.join(' ')}`,
    );
  }
}

assertNestInstalled();
