import { McpError } from '@modelcontextprotocol/sdk/types.js';
import {
  MAX_SUBSCRIBED_URI_LENGTH,
  ResourceSubscriptions,
} from '../../../../lib/mcp/serve/catalog/resource-subscriptions';

function errorOf(run: () => void): McpError {
  try {
    run();
  } catch (error) {
    if (error instanceof McpError) return error;
    throw error;
  }
  throw new Error('expected an McpError');
}

describe('ResourceSubscriptions', () => {
  it('refuses a URI longer than it keeps with -32602, before counting it', () => {
    const subscriptions = new ResourceSubscriptions(1_000);
    const uri = `files://${'a'.repeat(MAX_SUBSCRIBED_URI_LENGTH)}`;
    const error = errorOf(() => subscriptions.add(uri));
    expect(error.code).toBe(-32602);
    expect(error.message).toContain(`at most ${MAX_SUBSCRIBED_URI_LENGTH} characters`);
    expect(error.data).toEqual({ maxUriLength: MAX_SUBSCRIBED_URI_LENGTH });
    expect(subscriptions.has(uri)).toBe(false);
    const longest = `files://${'a'.repeat(MAX_SUBSCRIBED_URI_LENGTH - 'files://'.length)}`;
    subscriptions.add(longest);
    expect(subscriptions.has(longest)).toBe(true);
  });

  it('refuses one more than its limit with -32029, but a URI it holds again', () => {
    const subscriptions = new ResourceSubscriptions(1);
    subscriptions.add('files://a');
    subscriptions.add('files://a');
    expect(errorOf(() => subscriptions.add('files://b')).code).toBe(-32029);
  });
});
