import { Inject } from '@nestjs/common';
import { Agent } from '../agents/agent';

/** Injects the application-wide `Agent` (sugar for injecting by the `Agent` class itself). */
export function InjectAgent(): PropertyDecorator & ParameterDecorator {
  return Inject(Agent);
}
