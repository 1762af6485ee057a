// aws-local-stepfunctions 3 calls Promise.withResolvers, which Node 20 lacks: without it every
// Task fails with a TypeError that Catch: States.ALL would hide.
type Resolvers<T> = { promise: Promise<T>; resolve: (v: T | PromiseLike<T>) => void; reject: (e?: unknown) => void };
const P = Promise as unknown as { withResolvers?: <T>() => Resolvers<T> };
if (!P.withResolvers) {
  P.withResolvers = function <T>(): Resolvers<T> {
    let resolve!: Resolvers<T>["resolve"];
    let reject!: Resolvers<T>["reject"];
    const promise = new Promise<T>((a, b) => {
      resolve = a;
      reject = b;
    });
    return { promise, resolve, reject };
  };
}
export {};
