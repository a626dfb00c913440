/**
 * Start a server on the port it had last time, or on a port of its own when that fails. Checking the
 * port first is no answer: a remembered port is an ephemeral one, which any other process (a
 * parallel test suite, an outgoing connection) can take between the check and the listen, and the
 * lab then died of the listen's unhandled error. So the start itself is tried, and tried again.
 */
export async function onLastPortOrAny<T>(port: number | undefined, start: (port: number | undefined) => Promise<T>): Promise<T> {
  if (port) {
    try {
      return await start(port);
    } catch {
      // Taken since the last start (or refused for another reason, which the second start reports).
    }
  }
  return start(undefined);
}
