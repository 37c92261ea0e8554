/** Resolves with the parent's `init` message (see receive-init.mjs). */
export declare function receiveInit<Init>(): Promise<Init>;
