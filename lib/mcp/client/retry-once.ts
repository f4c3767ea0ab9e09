import { ProtolinkError } from '../../errors/protolink-error';

/** Internal: the call never reached a live server (or may be repeated safely); try once on a new session. */
export class RetryOnce extends ProtolinkError {
  constructor(readonly finalError: ProtolinkError) {
    super(finalError.message, { cause: finalError });
  }
}
