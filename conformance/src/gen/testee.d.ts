import * as $protobuf from "protobufjs";

/** Namespace ectp. */
export namespace ectp {

    /** Namespace conformance. */
    namespace conformance {

        /** Namespace v1. */
        namespace v1 {

            /** The role of the implementation instance a testee wraps. */
            enum Role {

                /** Not given. Configure with this role MUST be answered with Error. */
                ROLE_UNSPECIFIED = 0,

                /** A consumer (the ConsumerCore of the TypeScript SDK). */
                ROLE_CONSUMER = 1,

                /** A producer with its item store (ProducerCore + MemoryItemStore). */
                ROLE_PRODUCER = 2,

                /**
                 * A subscriber of producers' events, as a router runs (the EventSubscriber of
                 * the TypeScript SDK) [E1][E2]. Optional feature "subscriber".
                 */
                ROLE_SUBSCRIBER = 3
            }

            /**
             * Properties of a TesteeRequest.
             * @deprecated Use ectp.conformance.v1.TesteeRequest.$Properties instead.
             */
            interface ITesteeRequest extends ectp.conformance.v1.TesteeRequest.$Properties {
            }

            /** One command from the runner. */
            class TesteeRequest {

                /**
                 * Constructs a new TesteeRequest.
                 * @param [properties] Properties to set
                 */
                constructor(properties?: ectp.conformance.v1.TesteeRequest.$Properties);

                /** Unknown fields preserved while decoding when enabled */
                $unknowns?: Uint8Array[];

                /**
                 * Runner-assigned id, strictly increasing within one testee process,
                 * starting at 1. The response MUST echo it.
                 */
                commandId: number;

                /**
                 * The current time of the runner's virtual clock, in milliseconds. Every
                 * command carries it; it never decreases across commands of one testee
                 * process except across a Configure (a fresh instance may start at any
                 * time). The testee MUST pass it as `now` to the implementation and MUST
                 * NOT read a real clock.
                 */
                nowMs: number;

                /** Announce the testee protocol; first command of every process. */
                init?: (ectp.conformance.v1.Init.$Properties|null|undefined);

                /** Create a fresh implementation instance (replacing any previous one). */
                configure?: (ectp.conformance.v1.Configure.$Properties|null|undefined);

                /** Consumer: engine admits a request. */
                admit?: (ectp.conformance.v1.Admit.$Properties|null|undefined);

                /** Consumer: engine finished or cancelled a request. */
                finishRequest?: (ectp.conformance.v1.FinishRequest.$Properties|null|undefined);

                /** Consumer: engine drains failed requests (drain-once). */
                drainFailed?: (ectp.conformance.v1.DrainFailed.$Properties|null|undefined);

                /** Producer: write a new (not ready) item into the store. */
                putItem?: (ectp.conformance.v1.PutItem.$Properties|null|undefined);

                /** Producer: the item is fully written. */
                markReady?: (ectp.conformance.v1.MarkReady.$Properties|null|undefined);

                /** Producer: drop an item that is not ready yet. */
                discard?: (ectp.conformance.v1.Discard.$Properties|null|undefined);

                /** Producer: evict one ready, unpinned item now. */
                evict?: (ectp.conformance.v1.Evict.$Properties|null|undefined);

                /** Producer: reset the region (drop every item). */
                clearStore?: (ectp.conformance.v1.ClearStore.$Properties|null|undefined);

                /** Producer: produce an announcement for an item. */
                announce?: (ectp.conformance.v1.Announce.$Properties|null|undefined);

                /** Producer: begin shutting down. */
                shutdown?: (ectp.conformance.v1.Shutdown.$Properties|null|undefined);

                /**
                 * Producer: read bytes of the producer's registered memory (what a
                 * peer's one-sided read would see).
                 */
                readMemory?: (ectp.conformance.v1.ReadMemory.$Properties|null|undefined);

                /** Any role: a control message arrived from a peer. */
                deliverMessage?: (ectp.conformance.v1.DeliverMessage.$Properties|null|undefined);

                /** Consumer: a read the testee started has settled. */
                deliverReadResult?: (ectp.conformance.v1.DeliverReadResult.$Properties|null|undefined);

                /** Any role: the transport found a peer unreachable. */
                peerUnreachable?: (ectp.conformance.v1.PeerUnreachable.$Properties|null|undefined);

                /** Any role: time passed; nothing else happened. */
                advanceClock?: (ectp.conformance.v1.AdvanceClock.$Properties|null|undefined);

                /** Any role: collect the outputs due at now_ms. */
                poll?: (ectp.conformance.v1.Poll.$Properties|null|undefined);

                /** Any role: report table sizes and counters. */
                getStats?: (ectp.conformance.v1.GetStats.$Properties|null|undefined);

                /** Subscriber: start following a producer. */
                follow?: (ectp.conformance.v1.Follow.$Properties|null|undefined);

                /** Subscriber: stop following a producer and drop its view. */
                unfollow?: (ectp.conformance.v1.Unfollow.$Properties|null|undefined);

                /** Subscriber: report its view of a followed producer. */
                getView?: (ectp.conformance.v1.GetView.$Properties|null|undefined);

                /**
                 * Any role: decode a byte stream with the implementation's own stream
                 * decoder (optional feature "stream-framing").
                 */
                decodeStream?: (ectp.conformance.v1.DecodeStream.$Properties|null|undefined);

                /**
                 * The command. Exactly one is set; a request with none set MUST be
                 * answered with Unsupported{feature: "unknown-command"}.
                 */
                command?: ("init"|"configure"|"admit"|"finishRequest"|"drainFailed"|"putItem"|"markReady"|"discard"|"evict"|"clearStore"|"announce"|"shutdown"|"readMemory"|"deliverMessage"|"deliverReadResult"|"peerUnreachable"|"advanceClock"|"poll"|"getStats"|"follow"|"unfollow"|"getView"|"decodeStream");

                /**
                 * Creates a new TesteeRequest instance using the specified properties.
                 * @param [properties] Properties to set
                 * @returns TesteeRequest instance
                 */
                static create(properties: ectp.conformance.v1.TesteeRequest.$Shape): ectp.conformance.v1.TesteeRequest & ectp.conformance.v1.TesteeRequest.$Shape;
                static create(properties?: ectp.conformance.v1.TesteeRequest.$Properties): ectp.conformance.v1.TesteeRequest;

                /**
                 * Encodes the specified TesteeRequest message. Does not implicitly {@link ectp.conformance.v1.TesteeRequest.verify|verify} messages.
                 * @param message TesteeRequest message or plain object to encode
                 * @param [writer] Writer to encode to
                 * @returns Writer
                 */
                static encode(message: ectp.conformance.v1.TesteeRequest.$Properties, writer?: $protobuf.Writer): $protobuf.Writer;

                /**
                 * Encodes the specified TesteeRequest message, length delimited. Does not implicitly {@link ectp.conformance.v1.TesteeRequest.verify|verify} messages.
                 * @param message TesteeRequest message or plain object to encode
                 * @param [writer] Writer to encode to
                 * @returns Writer
                 */
                static encodeDelimited(message: ectp.conformance.v1.TesteeRequest.$Properties, writer?: $protobuf.Writer): $protobuf.Writer;

                /**
                 * Decodes a TesteeRequest message from the specified reader or buffer.
                 * @param reader Reader or buffer to decode from
                 * @param [length] Message length if known beforehand
                 * @returns {ectp.conformance.v1.TesteeRequest & ectp.conformance.v1.TesteeRequest.$Shape} TesteeRequest
                 * @throws {Error} If the payload is not a reader or valid buffer
                 * @throws {$protobuf.util.ProtocolError} If required fields are missing
                 */
                static decode(reader: ($protobuf.Reader|Uint8Array), length?: number): ectp.conformance.v1.TesteeRequest & ectp.conformance.v1.TesteeRequest.$Shape;

                /**
                 * Decodes a TesteeRequest message from the specified reader or buffer, length delimited.
                 * @param reader Reader or buffer to decode from
                 * @returns {ectp.conformance.v1.TesteeRequest & ectp.conformance.v1.TesteeRequest.$Shape} TesteeRequest
                 * @throws {Error} If the payload is not a reader or valid buffer
                 * @throws {$protobuf.util.ProtocolError} If required fields are missing
                 */
                static decodeDelimited(reader: ($protobuf.Reader|Uint8Array)): ectp.conformance.v1.TesteeRequest & ectp.conformance.v1.TesteeRequest.$Shape;

                /**
                 * Verifies a TesteeRequest message.
                 * @param message Plain object to verify
                 * @returns `null` if valid, otherwise the reason why it is not
                 */
                static verify(message: { [k: string]: any }): (string|null);

                /**
                 * Creates a TesteeRequest message from a plain object. Also converts values to their respective internal types.
                 * @param object Plain object
                 * @returns TesteeRequest
                 */
                static fromObject(object: { [k: string]: any }): ectp.conformance.v1.TesteeRequest;

                /**
                 * Creates a plain object from a TesteeRequest message. Also converts values to other types if specified.
                 * @param message TesteeRequest
                 * @param [options] Conversion options
                 * @returns Plain object
                 */
                static toObject(message: ectp.conformance.v1.TesteeRequest, options?: $protobuf.IConversionOptions): { [k: string]: any };

                /**
                 * Converts this TesteeRequest to JSON.
                 * @returns JSON object
                 */
                toJSON(): { [k: string]: any };

                /**
                 * Gets the type url for TesteeRequest
                 * @param [prefix] Custom type url prefix, defaults to `"type.googleapis.com"`
                 * @returns The type url
                 */
                static getTypeUrl(prefix?: string): string;
            }

            namespace TesteeRequest {

                /** Properties of a TesteeRequest. */
                interface $Properties {

                    /**
                     * Runner-assigned id, strictly increasing within one testee process,
                     * starting at 1. The response MUST echo it.
                     */
                    commandId?: (number|null|undefined);

                    /**
                     * The current time of the runner's virtual clock, in milliseconds. Every
                     * command carries it; it never decreases across commands of one testee
                     * process except across a Configure (a fresh instance may start at any
                     * time). The testee MUST pass it as `now` to the implementation and MUST
                     * NOT read a real clock.
                     */
                    nowMs?: (number|null|undefined);

                    /** Announce the testee protocol; first command of every process. */
                    init?: (ectp.conformance.v1.Init.$Properties|null|undefined);

                    /** Create a fresh implementation instance (replacing any previous one). */
                    configure?: (ectp.conformance.v1.Configure.$Properties|null|undefined);

                    /** Consumer: engine admits a request. */
                    admit?: (ectp.conformance.v1.Admit.$Properties|null|undefined);

                    /** Consumer: engine finished or cancelled a request. */
                    finishRequest?: (ectp.conformance.v1.FinishRequest.$Properties|null|undefined);

                    /** Consumer: engine drains failed requests (drain-once). */
                    drainFailed?: (ectp.conformance.v1.DrainFailed.$Properties|null|undefined);

                    /** Producer: write a new (not ready) item into the store. */
                    putItem?: (ectp.conformance.v1.PutItem.$Properties|null|undefined);

                    /** Producer: the item is fully written. */
                    markReady?: (ectp.conformance.v1.MarkReady.$Properties|null|undefined);

                    /** Producer: drop an item that is not ready yet. */
                    discard?: (ectp.conformance.v1.Discard.$Properties|null|undefined);

                    /** Producer: evict one ready, unpinned item now. */
                    evict?: (ectp.conformance.v1.Evict.$Properties|null|undefined);

                    /** Producer: reset the region (drop every item). */
                    clearStore?: (ectp.conformance.v1.ClearStore.$Properties|null|undefined);

                    /** Producer: produce an announcement for an item. */
                    announce?: (ectp.conformance.v1.Announce.$Properties|null|undefined);

                    /** Producer: begin shutting down. */
                    shutdown?: (ectp.conformance.v1.Shutdown.$Properties|null|undefined);

                    /**
                     * Producer: read bytes of the producer's registered memory (what a
                     * peer's one-sided read would see).
                     */
                    readMemory?: (ectp.conformance.v1.ReadMemory.$Properties|null|undefined);

                    /** Any role: a control message arrived from a peer. */
                    deliverMessage?: (ectp.conformance.v1.DeliverMessage.$Properties|null|undefined);

                    /** Consumer: a read the testee started has settled. */
                    deliverReadResult?: (ectp.conformance.v1.DeliverReadResult.$Properties|null|undefined);

                    /** Any role: the transport found a peer unreachable. */
                    peerUnreachable?: (ectp.conformance.v1.PeerUnreachable.$Properties|null|undefined);

                    /** Any role: time passed; nothing else happened. */
                    advanceClock?: (ectp.conformance.v1.AdvanceClock.$Properties|null|undefined);

                    /** Any role: collect the outputs due at now_ms. */
                    poll?: (ectp.conformance.v1.Poll.$Properties|null|undefined);

                    /** Any role: report table sizes and counters. */
                    getStats?: (ectp.conformance.v1.GetStats.$Properties|null|undefined);

                    /** Subscriber: start following a producer. */
                    follow?: (ectp.conformance.v1.Follow.$Properties|null|undefined);

                    /** Subscriber: stop following a producer and drop its view. */
                    unfollow?: (ectp.conformance.v1.Unfollow.$Properties|null|undefined);

                    /** Subscriber: report its view of a followed producer. */
                    getView?: (ectp.conformance.v1.GetView.$Properties|null|undefined);

                    /**
                     * Any role: decode a byte stream with the implementation's own stream
                     * decoder (optional feature "stream-framing").
                     */
                    decodeStream?: (ectp.conformance.v1.DecodeStream.$Properties|null|undefined);

                    /**
                     * The command. Exactly one is set; a request with none set MUST be
                     * answered with Unsupported{feature: "unknown-command"}.
                     */
                    command?: ("init"|"configure"|"admit"|"finishRequest"|"drainFailed"|"putItem"|"markReady"|"discard"|"evict"|"clearStore"|"announce"|"shutdown"|"readMemory"|"deliverMessage"|"deliverReadResult"|"peerUnreachable"|"advanceClock"|"poll"|"getStats"|"follow"|"unfollow"|"getView"|"decodeStream");

                    /** Unknown fields preserved while decoding when enabled */
                    $unknowns?: Uint8Array[];
                }

                /** Narrowed shape of a TesteeRequest. */
                type $Shape = {
                  /** `commandId`, as documented on this message's `$Properties`. */
                  commandId?: number|null;
                  /** `nowMs`, as documented on this message's `$Properties`. */
                  nowMs?: number|null;
                  /** `init`, as documented on this message's `$Properties`. */
                  init?: ectp.conformance.v1.Init.$Shape|null;
                  /** `configure`, as documented on this message's `$Properties`. */
                  configure?: ectp.conformance.v1.Configure.$Shape|null;
                  /** `admit`, as documented on this message's `$Properties`. */
                  admit?: ectp.conformance.v1.Admit.$Shape|null;
                  /** `finishRequest`, as documented on this message's `$Properties`. */
                  finishRequest?: ectp.conformance.v1.FinishRequest.$Shape|null;
                  /** `drainFailed`, as documented on this message's `$Properties`. */
                  drainFailed?: ectp.conformance.v1.DrainFailed.$Shape|null;
                  /** `putItem`, as documented on this message's `$Properties`. */
                  putItem?: ectp.conformance.v1.PutItem.$Shape|null;
                  /** `markReady`, as documented on this message's `$Properties`. */
                  markReady?: ectp.conformance.v1.MarkReady.$Shape|null;
                  /** `discard`, as documented on this message's `$Properties`. */
                  discard?: ectp.conformance.v1.Discard.$Shape|null;
                  /** `evict`, as documented on this message's `$Properties`. */
                  evict?: ectp.conformance.v1.Evict.$Shape|null;
                  /** `clearStore`, as documented on this message's `$Properties`. */
                  clearStore?: ectp.conformance.v1.ClearStore.$Shape|null;
                  /** `announce`, as documented on this message's `$Properties`. */
                  announce?: ectp.conformance.v1.Announce.$Shape|null;
                  /** `shutdown`, as documented on this message's `$Properties`. */
                  shutdown?: ectp.conformance.v1.Shutdown.$Shape|null;
                  /** `readMemory`, as documented on this message's `$Properties`. */
                  readMemory?: ectp.conformance.v1.ReadMemory.$Shape|null;
                  /** `deliverMessage`, as documented on this message's `$Properties`. */
                  deliverMessage?: ectp.conformance.v1.DeliverMessage.$Shape|null;
                  /** `deliverReadResult`, as documented on this message's `$Properties`. */
                  deliverReadResult?: ectp.conformance.v1.DeliverReadResult.$Shape|null;
                  /** `peerUnreachable`, as documented on this message's `$Properties`. */
                  peerUnreachable?: ectp.conformance.v1.PeerUnreachable.$Shape|null;
                  /** `advanceClock`, as documented on this message's `$Properties`. */
                  advanceClock?: ectp.conformance.v1.AdvanceClock.$Shape|null;
                  /** `poll`, as documented on this message's `$Properties`. */
                  poll?: ectp.conformance.v1.Poll.$Shape|null;
                  /** `getStats`, as documented on this message's `$Properties`. */
                  getStats?: ectp.conformance.v1.GetStats.$Shape|null;
                  /** `follow`, as documented on this message's `$Properties`. */
                  follow?: ectp.conformance.v1.Follow.$Shape|null;
                  /** `unfollow`, as documented on this message's `$Properties`. */
                  unfollow?: ectp.conformance.v1.Unfollow.$Shape|null;
                  /** `getView`, as documented on this message's `$Properties`. */
                  getView?: ectp.conformance.v1.GetView.$Shape|null;
                  /** `decodeStream`, as documented on this message's `$Properties`. */
                  decodeStream?: ectp.conformance.v1.DecodeStream.$Shape|null;
                  /** `$unknowns`, as documented on this message's `$Properties`. */
                  $unknowns?: Uint8Array[];
                } & (
                  ({
                    /** `command`, as documented on this message's `$Properties`. */
                    command?: undefined;
                    /** `init`, as documented on this message's `$Properties`. */
                    init?: null;
                    /** `configure`, as documented on this message's `$Properties`. */
                    configure?: null;
                    /** `admit`, as documented on this message's `$Properties`. */
                    admit?: null;
                    /** `finishRequest`, as documented on this message's `$Properties`. */
                    finishRequest?: null;
                    /** `drainFailed`, as documented on this message's `$Properties`. */
                    drainFailed?: null;
                    /** `putItem`, as documented on this message's `$Properties`. */
                    putItem?: null;
                    /** `markReady`, as documented on this message's `$Properties`. */
                    markReady?: null;
                    /** `discard`, as documented on this message's `$Properties`. */
                    discard?: null;
                    /** `evict`, as documented on this message's `$Properties`. */
                    evict?: null;
                    /** `clearStore`, as documented on this message's `$Properties`. */
                    clearStore?: null;
                    /** `announce`, as documented on this message's `$Properties`. */
                    announce?: null;
                    /** `shutdown`, as documented on this message's `$Properties`. */
                    shutdown?: null;
                    /** `readMemory`, as documented on this message's `$Properties`. */
                    readMemory?: null;
                    /** `deliverMessage`, as documented on this message's `$Properties`. */
                    deliverMessage?: null;
                    /** `deliverReadResult`, as documented on this message's `$Properties`. */
                    deliverReadResult?: null;
                    /** `peerUnreachable`, as documented on this message's `$Properties`. */
                    peerUnreachable?: null;
                    /** `advanceClock`, as documented on this message's `$Properties`. */
                    advanceClock?: null;
                    /** `poll`, as documented on this message's `$Properties`. */
                    poll?: null;
                    /** `getStats`, as documented on this message's `$Properties`. */
                    getStats?: null;
                    /** `follow`, as documented on this message's `$Properties`. */
                    follow?: null;
                    /** `unfollow`, as documented on this message's `$Properties`. */
                    unfollow?: null;
                    /** `getView`, as documented on this message's `$Properties`. */
                    getView?: null;
                    /** `decodeStream`, as documented on this message's `$Properties`. */
                    decodeStream?: null }|{
                    /** `command`, as documented on this message's `$Properties`. */
                    command?: "init";
                    /** `init`, as documented on this message's `$Properties`. */
                    init: ectp.conformance.v1.Init.$Shape;
                    /** `configure`, as documented on this message's `$Properties`. */
                    configure?: null;
                    /** `admit`, as documented on this message's `$Properties`. */
                    admit?: null;
                    /** `finishRequest`, as documented on this message's `$Properties`. */
                    finishRequest?: null;
                    /** `drainFailed`, as documented on this message's `$Properties`. */
                    drainFailed?: null;
                    /** `putItem`, as documented on this message's `$Properties`. */
                    putItem?: null;
                    /** `markReady`, as documented on this message's `$Properties`. */
                    markReady?: null;
                    /** `discard`, as documented on this message's `$Properties`. */
                    discard?: null;
                    /** `evict`, as documented on this message's `$Properties`. */
                    evict?: null;
                    /** `clearStore`, as documented on this message's `$Properties`. */
                    clearStore?: null;
                    /** `announce`, as documented on this message's `$Properties`. */
                    announce?: null;
                    /** `shutdown`, as documented on this message's `$Properties`. */
                    shutdown?: null;
                    /** `readMemory`, as documented on this message's `$Properties`. */
                    readMemory?: null;
                    /** `deliverMessage`, as documented on this message's `$Properties`. */
                    deliverMessage?: null;
                    /** `deliverReadResult`, as documented on this message's `$Properties`. */
                    deliverReadResult?: null;
                    /** `peerUnreachable`, as documented on this message's `$Properties`. */
                    peerUnreachable?: null;
                    /** `advanceClock`, as documented on this message's `$Properties`. */
                    advanceClock?: null;
                    /** `poll`, as documented on this message's `$Properties`. */
                    poll?: null;
                    /** `getStats`, as documented on this message's `$Properties`. */
                    getStats?: null;
                    /** `follow`, as documented on this message's `$Properties`. */
                    follow?: null;
                    /** `unfollow`, as documented on this message's `$Properties`. */
                    unfollow?: null;
                    /** `getView`, as documented on this message's `$Properties`. */
                    getView?: null;
                    /** `decodeStream`, as documented on this message's `$Properties`. */
                    decodeStream?: null }|{
                    /** `command`, as documented on this message's `$Properties`. */
                    command?: "configure";
                    /** `init`, as documented on this message's `$Properties`. */
                    init?: null;
                    /** `configure`, as documented on this message's `$Properties`. */
                    configure: ectp.conformance.v1.Configure.$Shape;
                    /** `admit`, as documented on this message's `$Properties`. */
                    admit?: null;
                    /** `finishRequest`, as documented on this message's `$Properties`. */
                    finishRequest?: null;
                    /** `drainFailed`, as documented on this message's `$Properties`. */
                    drainFailed?: null;
                    /** `putItem`, as documented on this message's `$Properties`. */
                    putItem?: null;
                    /** `markReady`, as documented on this message's `$Properties`. */
                    markReady?: null;
                    /** `discard`, as documented on this message's `$Properties`. */
                    discard?: null;
                    /** `evict`, as documented on this message's `$Properties`. */
                    evict?: null;
                    /** `clearStore`, as documented on this message's `$Properties`. */
                    clearStore?: null;
                    /** `announce`, as documented on this message's `$Properties`. */
                    announce?: null;
                    /** `shutdown`, as documented on this message's `$Properties`. */
                    shutdown?: null;
                    /** `readMemory`, as documented on this message's `$Properties`. */
                    readMemory?: null;
                    /** `deliverMessage`, as documented on this message's `$Properties`. */
                    deliverMessage?: null;
                    /** `deliverReadResult`, as documented on this message's `$Properties`. */
                    deliverReadResult?: null;
                    /** `peerUnreachable`, as documented on this message's `$Properties`. */
                    peerUnreachable?: null;
                    /** `advanceClock`, as documented on this message's `$Properties`. */
                    advanceClock?: null;
                    /** `poll`, as documented on this message's `$Properties`. */
                    poll?: null;
                    /** `getStats`, as documented on this message's `$Properties`. */
                    getStats?: null;
                    /** `follow`, as documented on this message's `$Properties`. */
                    follow?: null;
                    /** `unfollow`, as documented on this message's `$Properties`. */
                    unfollow?: null;
                    /** `getView`, as documented on this message's `$Properties`. */
                    getView?: null;
                    /** `decodeStream`, as documented on this message's `$Properties`. */
                    decodeStream?: null }|{
                    /** `command`, as documented on this message's `$Properties`. */
                    command?: "admit";
                    /** `init`, as documented on this message's `$Properties`. */
                    init?: null;
                    /** `configure`, as documented on this message's `$Properties`. */
                    configure?: null;
                    /** `admit`, as documented on this message's `$Properties`. */
                    admit: ectp.conformance.v1.Admit.$Shape;
                    /** `finishRequest`, as documented on this message's `$Properties`. */
                    finishRequest?: null;
                    /** `drainFailed`, as documented on this message's `$Properties`. */
                    drainFailed?: null;
                    /** `putItem`, as documented on this message's `$Properties`. */
                    putItem?: null;
                    /** `markReady`, as documented on this message's `$Properties`. */
                    markReady?: null;
                    /** `discard`, as documented on this message's `$Properties`. */
                    discard?: null;
                    /** `evict`, as documented on this message's `$Properties`. */
                    evict?: null;
                    /** `clearStore`, as documented on this message's `$Properties`. */
                    clearStore?: null;
                    /** `announce`, as documented on this message's `$Properties`. */
                    announce?: null;
                    /** `shutdown`, as documented on this message's `$Properties`. */
                    shutdown?: null;
                    /** `readMemory`, as documented on this message's `$Properties`. */
                    readMemory?: null;
                    /** `deliverMessage`, as documented on this message's `$Properties`. */
                    deliverMessage?: null;
                    /** `deliverReadResult`, as documented on this message's `$Properties`. */
                    deliverReadResult?: null;
                    /** `peerUnreachable`, as documented on this message's `$Properties`. */
                    peerUnreachable?: null;
                    /** `advanceClock`, as documented on this message's `$Properties`. */
                    advanceClock?: null;
                    /** `poll`, as documented on this message's `$Properties`. */
                    poll?: null;
                    /** `getStats`, as documented on this message's `$Properties`. */
                    getStats?: null;
                    /** `follow`, as documented on this message's `$Properties`. */
                    follow?: null;
                    /** `unfollow`, as documented on this message's `$Properties`. */
                    unfollow?: null;
                    /** `getView`, as documented on this message's `$Properties`. */
                    getView?: null;
                    /** `decodeStream`, as documented on this message's `$Properties`. */
                    decodeStream?: null }|{
                    /** `command`, as documented on this message's `$Properties`. */
                    command?: "finishRequest";
                    /** `init`, as documented on this message's `$Properties`. */
                    init?: null;
                    /** `configure`, as documented on this message's `$Properties`. */
                    configure?: null;
                    /** `admit`, as documented on this message's `$Properties`. */
                    admit?: null;
                    /** `finishRequest`, as documented on this message's `$Properties`. */
                    finishRequest: ectp.conformance.v1.FinishRequest.$Shape;
                    /** `drainFailed`, as documented on this message's `$Properties`. */
                    drainFailed?: null;
                    /** `putItem`, as documented on this message's `$Properties`. */
                    putItem?: null;
                    /** `markReady`, as documented on this message's `$Properties`. */
                    markReady?: null;
                    /** `discard`, as documented on this message's `$Properties`. */
                    discard?: null;
                    /** `evict`, as documented on this message's `$Properties`. */
                    evict?: null;
                    /** `clearStore`, as documented on this message's `$Properties`. */
                    clearStore?: null;
                    /** `announce`, as documented on this message's `$Properties`. */
                    announce?: null;
                    /** `shutdown`, as documented on this message's `$Properties`. */
                    shutdown?: null;
                    /** `readMemory`, as documented on this message's `$Properties`. */
                    readMemory?: null;
                    /** `deliverMessage`, as documented on this message's `$Properties`. */
                    deliverMessage?: null;
                    /** `deliverReadResult`, as documented on this message's `$Properties`. */
                    deliverReadResult?: null;
                    /** `peerUnreachable`, as documented on this message's `$Properties`. */
                    peerUnreachable?: null;
                    /** `advanceClock`, as documented on this message's `$Properties`. */
                    advanceClock?: null;
                    /** `poll`, as documented on this message's `$Properties`. */
                    poll?: null;
                    /** `getStats`, as documented on this message's `$Properties`. */
                    getStats?: null;
                    /** `follow`, as documented on this message's `$Properties`. */
                    follow?: null;
                    /** `unfollow`, as documented on this message's `$Properties`. */
                    unfollow?: null;
                    /** `getView`, as documented on this message's `$Properties`. */
                    getView?: null;
                    /** `decodeStream`, as documented on this message's `$Properties`. */
                    decodeStream?: null }|{
                    /** `command`, as documented on this message's `$Properties`. */
                    command?: "drainFailed";
                    /** `init`, as documented on this message's `$Properties`. */
                    init?: null;
                    /** `configure`, as documented on this message's `$Properties`. */
                    configure?: null;
                    /** `admit`, as documented on this message's `$Properties`. */
                    admit?: null;
                    /** `finishRequest`, as documented on this message's `$Properties`. */
                    finishRequest?: null;
                    /** `drainFailed`, as documented on this message's `$Properties`. */
                    drainFailed: ectp.conformance.v1.DrainFailed.$Shape;
                    /** `putItem`, as documented on this message's `$Properties`. */
                    putItem?: null;
                    /** `markReady`, as documented on this message's `$Properties`. */
                    markReady?: null;
                    /** `discard`, as documented on this message's `$Properties`. */
                    discard?: null;
                    /** `evict`, as documented on this message's `$Properties`. */
                    evict?: null;
                    /** `clearStore`, as documented on this message's `$Properties`. */
                    clearStore?: null;
                    /** `announce`, as documented on this message's `$Properties`. */
                    announce?: null;
                    /** `shutdown`, as documented on this message's `$Properties`. */
                    shutdown?: null;
                    /** `readMemory`, as documented on this message's `$Properties`. */
                    readMemory?: null;
                    /** `deliverMessage`, as documented on this message's `$Properties`. */
                    deliverMessage?: null;
                    /** `deliverReadResult`, as documented on this message's `$Properties`. */
                    deliverReadResult?: null;
                    /** `peerUnreachable`, as documented on this message's `$Properties`. */
                    peerUnreachable?: null;
                    /** `advanceClock`, as documented on this message's `$Properties`. */
                    advanceClock?: null;
                    /** `poll`, as documented on this message's `$Properties`. */
                    poll?: null;
                    /** `getStats`, as documented on this message's `$Properties`. */
                    getStats?: null;
                    /** `follow`, as documented on this message's `$Properties`. */
                    follow?: null;
                    /** `unfollow`, as documented on this message's `$Properties`. */
                    unfollow?: null;
                    /** `getView`, as documented on this message's `$Properties`. */
                    getView?: null;
                    /** `decodeStream`, as documented on this message's `$Properties`. */
                    decodeStream?: null }|{
                    /** `command`, as documented on this message's `$Properties`. */
                    command?: "putItem";
                    /** `init`, as documented on this message's `$Properties`. */
                    init?: null;
                    /** `configure`, as documented on this message's `$Properties`. */
                    configure?: null;
                    /** `admit`, as documented on this message's `$Properties`. */
                    admit?: null;
                    /** `finishRequest`, as documented on this message's `$Properties`. */
                    finishRequest?: null;
                    /** `drainFailed`, as documented on this message's `$Properties`. */
                    drainFailed?: null;
                    /** `putItem`, as documented on this message's `$Properties`. */
                    putItem: ectp.conformance.v1.PutItem.$Shape;
                    /** `markReady`, as documented on this message's `$Properties`. */
                    markReady?: null;
                    /** `discard`, as documented on this message's `$Properties`. */
                    discard?: null;
                    /** `evict`, as documented on this message's `$Properties`. */
                    evict?: null;
                    /** `clearStore`, as documented on this message's `$Properties`. */
                    clearStore?: null;
                    /** `announce`, as documented on this message's `$Properties`. */
                    announce?: null;
                    /** `shutdown`, as documented on this message's `$Properties`. */
                    shutdown?: null;
                    /** `readMemory`, as documented on this message's `$Properties`. */
                    readMemory?: null;
                    /** `deliverMessage`, as documented on this message's `$Properties`. */
                    deliverMessage?: null;
                    /** `deliverReadResult`, as documented on this message's `$Properties`. */
                    deliverReadResult?: null;
                    /** `peerUnreachable`, as documented on this message's `$Properties`. */
                    peerUnreachable?: null;
                    /** `advanceClock`, as documented on this message's `$Properties`. */
                    advanceClock?: null;
                    /** `poll`, as documented on this message's `$Properties`. */
                    poll?: null;
                    /** `getStats`, as documented on this message's `$Properties`. */
                    getStats?: null;
                    /** `follow`, as documented on this message's `$Properties`. */
                    follow?: null;
                    /** `unfollow`, as documented on this message's `$Properties`. */
                    unfollow?: null;
                    /** `getView`, as documented on this message's `$Properties`. */
                    getView?: null;
                    /** `decodeStream`, as documented on this message's `$Properties`. */
                    decodeStream?: null }|{
                    /** `command`, as documented on this message's `$Properties`. */
                    command?: "markReady";
                    /** `init`, as documented on this message's `$Properties`. */
                    init?: null;
                    /** `configure`, as documented on this message's `$Properties`. */
                    configure?: null;
                    /** `admit`, as documented on this message's `$Properties`. */
                    admit?: null;
                    /** `finishRequest`, as documented on this message's `$Properties`. */
                    finishRequest?: null;
                    /** `drainFailed`, as documented on this message's `$Properties`. */
                    drainFailed?: null;
                    /** `putItem`, as documented on this message's `$Properties`. */
                    putItem?: null;
                    /** `markReady`, as documented on this message's `$Properties`. */
                    markReady: ectp.conformance.v1.MarkReady.$Shape;
                    /** `discard`, as documented on this message's `$Properties`. */
                    discard?: null;
                    /** `evict`, as documented on this message's `$Properties`. */
                    evict?: null;
                    /** `clearStore`, as documented on this message's `$Properties`. */
                    clearStore?: null;
                    /** `announce`, as documented on this message's `$Properties`. */
                    announce?: null;
                    /** `shutdown`, as documented on this message's `$Properties`. */
                    shutdown?: null;
                    /** `readMemory`, as documented on this message's `$Properties`. */
                    readMemory?: null;
                    /** `deliverMessage`, as documented on this message's `$Properties`. */
                    deliverMessage?: null;
                    /** `deliverReadResult`, as documented on this message's `$Properties`. */
                    deliverReadResult?: null;
                    /** `peerUnreachable`, as documented on this message's `$Properties`. */
                    peerUnreachable?: null;
                    /** `advanceClock`, as documented on this message's `$Properties`. */
                    advanceClock?: null;
                    /** `poll`, as documented on this message's `$Properties`. */
                    poll?: null;
                    /** `getStats`, as documented on this message's `$Properties`. */
                    getStats?: null;
                    /** `follow`, as documented on this message's `$Properties`. */
                    follow?: null;
                    /** `unfollow`, as documented on this message's `$Properties`. */
                    unfollow?: null;
                    /** `getView`, as documented on this message's `$Properties`. */
                    getView?: null;
                    /** `decodeStream`, as documented on this message's `$Properties`. */
                    decodeStream?: null }|{
                    /** `command`, as documented on this message's `$Properties`. */
                    command?: "discard";
                    /** `init`, as documented on this message's `$Properties`. */
                    init?: null;
                    /** `configure`, as documented on this message's `$Properties`. */
                    configure?: null;
                    /** `admit`, as documented on this message's `$Properties`. */
                    admit?: null;
                    /** `finishRequest`, as documented on this message's `$Properties`. */
                    finishRequest?: null;
                    /** `drainFailed`, as documented on this message's `$Properties`. */
                    drainFailed?: null;
                    /** `putItem`, as documented on this message's `$Properties`. */
                    putItem?: null;
                    /** `markReady`, as documented on this message's `$Properties`. */
                    markReady?: null;
                    /** `discard`, as documented on this message's `$Properties`. */
                    discard: ectp.conformance.v1.Discard.$Shape;
                    /** `evict`, as documented on this message's `$Properties`. */
                    evict?: null;
                    /** `clearStore`, as documented on this message's `$Properties`. */
                    clearStore?: null;
                    /** `announce`, as documented on this message's `$Properties`. */
                    announce?: null;
                    /** `shutdown`, as documented on this message's `$Properties`. */
                    shutdown?: null;
                    /** `readMemory`, as documented on this message's `$Properties`. */
                    readMemory?: null;
                    /** `deliverMessage`, as documented on this message's `$Properties`. */
                    deliverMessage?: null;
                    /** `deliverReadResult`, as documented on this message's `$Properties`. */
                    deliverReadResult?: null;
                    /** `peerUnreachable`, as documented on this message's `$Properties`. */
                    peerUnreachable?: null;
                    /** `advanceClock`, as documented on this message's `$Properties`. */
                    advanceClock?: null;
                    /** `poll`, as documented on this message's `$Properties`. */
                    poll?: null;
                    /** `getStats`, as documented on this message's `$Properties`. */
                    getStats?: null;
                    /** `follow`, as documented on this message's `$Properties`. */
                    follow?: null;
                    /** `unfollow`, as documented on this message's `$Properties`. */
                    unfollow?: null;
                    /** `getView`, as documented on this message's `$Properties`. */
                    getView?: null;
                    /** `decodeStream`, as documented on this message's `$Properties`. */
                    decodeStream?: null }|{
                    /** `command`, as documented on this message's `$Properties`. */
                    command?: "evict";
                    /** `init`, as documented on this message's `$Properties`. */
                    init?: null;
                    /** `configure`, as documented on this message's `$Properties`. */
                    configure?: null;
                    /** `admit`, as documented on this message's `$Properties`. */
                    admit?: null;
                    /** `finishRequest`, as documented on this message's `$Properties`. */
                    finishRequest?: null;
                    /** `drainFailed`, as documented on this message's `$Properties`. */
                    drainFailed?: null;
                    /** `putItem`, as documented on this message's `$Properties`. */
                    putItem?: null;
                    /** `markReady`, as documented on this message's `$Properties`. */
                    markReady?: null;
                    /** `discard`, as documented on this message's `$Properties`. */
                    discard?: null;
                    /** `evict`, as documented on this message's `$Properties`. */
                    evict: ectp.conformance.v1.Evict.$Shape;
                    /** `clearStore`, as documented on this message's `$Properties`. */
                    clearStore?: null;
                    /** `announce`, as documented on this message's `$Properties`. */
                    announce?: null;
                    /** `shutdown`, as documented on this message's `$Properties`. */
                    shutdown?: null;
                    /** `readMemory`, as documented on this message's `$Properties`. */
                    readMemory?: null;
                    /** `deliverMessage`, as documented on this message's `$Properties`. */
                    deliverMessage?: null;
                    /** `deliverReadResult`, as documented on this message's `$Properties`. */
                    deliverReadResult?: null;
                    /** `peerUnreachable`, as documented on this message's `$Properties`. */
                    peerUnreachable?: null;
                    /** `advanceClock`, as documented on this message's `$Properties`. */
                    advanceClock?: null;
                    /** `poll`, as documented on this message's `$Properties`. */
                    poll?: null;
                    /** `getStats`, as documented on this message's `$Properties`. */
                    getStats?: null;
                    /** `follow`, as documented on this message's `$Properties`. */
                    follow?: null;
                    /** `unfollow`, as documented on this message's `$Properties`. */
                    unfollow?: null;
                    /** `getView`, as documented on this message's `$Properties`. */
                    getView?: null;
                    /** `decodeStream`, as documented on this message's `$Properties`. */
                    decodeStream?: null }|{
                    /** `command`, as documented on this message's `$Properties`. */
                    command?: "clearStore";
                    /** `init`, as documented on this message's `$Properties`. */
                    init?: null;
                    /** `configure`, as documented on this message's `$Properties`. */
                    configure?: null;
                    /** `admit`, as documented on this message's `$Properties`. */
                    admit?: null;
                    /** `finishRequest`, as documented on this message's `$Properties`. */
                    finishRequest?: null;
                    /** `drainFailed`, as documented on this message's `$Properties`. */
                    drainFailed?: null;
                    /** `putItem`, as documented on this message's `$Properties`. */
                    putItem?: null;
                    /** `markReady`, as documented on this message's `$Properties`. */
                    markReady?: null;
                    /** `discard`, as documented on this message's `$Properties`. */
                    discard?: null;
                    /** `evict`, as documented on this message's `$Properties`. */
                    evict?: null;
                    /** `clearStore`, as documented on this message's `$Properties`. */
                    clearStore: ectp.conformance.v1.ClearStore.$Shape;
                    /** `announce`, as documented on this message's `$Properties`. */
                    announce?: null;
                    /** `shutdown`, as documented on this message's `$Properties`. */
                    shutdown?: null;
                    /** `readMemory`, as documented on this message's `$Properties`. */
                    readMemory?: null;
                    /** `deliverMessage`, as documented on this message's `$Properties`. */
                    deliverMessage?: null;
                    /** `deliverReadResult`, as documented on this message's `$Properties`. */
                    deliverReadResult?: null;
                    /** `peerUnreachable`, as documented on this message's `$Properties`. */
                    peerUnreachable?: null;
                    /** `advanceClock`, as documented on this message's `$Properties`. */
                    advanceClock?: null;
                    /** `poll`, as documented on this message's `$Properties`. */
                    poll?: null;
                    /** `getStats`, as documented on this message's `$Properties`. */
                    getStats?: null;
                    /** `follow`, as documented on this message's `$Properties`. */
                    follow?: null;
                    /** `unfollow`, as documented on this message's `$Properties`. */
                    unfollow?: null;
                    /** `getView`, as documented on this message's `$Properties`. */
                    getView?: null;
                    /** `decodeStream`, as documented on this message's `$Properties`. */
                    decodeStream?: null }|{
                    /** `command`, as documented on this message's `$Properties`. */
                    command?: "announce";
                    /** `init`, as documented on this message's `$Properties`. */
                    init?: null;
                    /** `configure`, as documented on this message's `$Properties`. */
                    configure?: null;
                    /** `admit`, as documented on this message's `$Properties`. */
                    admit?: null;
                    /** `finishRequest`, as documented on this message's `$Properties`. */
                    finishRequest?: null;
                    /** `drainFailed`, as documented on this message's `$Properties`. */
                    drainFailed?: null;
                    /** `putItem`, as documented on this message's `$Properties`. */
                    putItem?: null;
                    /** `markReady`, as documented on this message's `$Properties`. */
                    markReady?: null;
                    /** `discard`, as documented on this message's `$Properties`. */
                    discard?: null;
                    /** `evict`, as documented on this message's `$Properties`. */
                    evict?: null;
                    /** `clearStore`, as documented on this message's `$Properties`. */
                    clearStore?: null;
                    /** `announce`, as documented on this message's `$Properties`. */
                    announce: ectp.conformance.v1.Announce.$Shape;
                    /** `shutdown`, as documented on this message's `$Properties`. */
                    shutdown?: null;
                    /** `readMemory`, as documented on this message's `$Properties`. */
                    readMemory?: null;
                    /** `deliverMessage`, as documented on this message's `$Properties`. */
                    deliverMessage?: null;
                    /** `deliverReadResult`, as documented on this message's `$Properties`. */
                    deliverReadResult?: null;
                    /** `peerUnreachable`, as documented on this message's `$Properties`. */
                    peerUnreachable?: null;
                    /** `advanceClock`, as documented on this message's `$Properties`. */
                    advanceClock?: null;
                    /** `poll`, as documented on this message's `$Properties`. */
                    poll?: null;
                    /** `getStats`, as documented on this message's `$Properties`. */
                    getStats?: null;
                    /** `follow`, as documented on this message's `$Properties`. */
                    follow?: null;
                    /** `unfollow`, as documented on this message's `$Properties`. */
                    unfollow?: null;
                    /** `getView`, as documented on this message's `$Properties`. */
                    getView?: null;
                    /** `decodeStream`, as documented on this message's `$Properties`. */
                    decodeStream?: null }|{
                    /** `command`, as documented on this message's `$Properties`. */
                    command?: "shutdown";
                    /** `init`, as documented on this message's `$Properties`. */
                    init?: null;
                    /** `configure`, as documented on this message's `$Properties`. */
                    configure?: null;
                    /** `admit`, as documented on this message's `$Properties`. */
                    admit?: null;
                    /** `finishRequest`, as documented on this message's `$Properties`. */
                    finishRequest?: null;
                    /** `drainFailed`, as documented on this message's `$Properties`. */
                    drainFailed?: null;
                    /** `putItem`, as documented on this message's `$Properties`. */
                    putItem?: null;
                    /** `markReady`, as documented on this message's `$Properties`. */
                    markReady?: null;
                    /** `discard`, as documented on this message's `$Properties`. */
                    discard?: null;
                    /** `evict`, as documented on this message's `$Properties`. */
                    evict?: null;
                    /** `clearStore`, as documented on this message's `$Properties`. */
                    clearStore?: null;
                    /** `announce`, as documented on this message's `$Properties`. */
                    announce?: null;
                    /** `shutdown`, as documented on this message's `$Properties`. */
                    shutdown: ectp.conformance.v1.Shutdown.$Shape;
                    /** `readMemory`, as documented on this message's `$Properties`. */
                    readMemory?: null;
                    /** `deliverMessage`, as documented on this message's `$Properties`. */
                    deliverMessage?: null;
                    /** `deliverReadResult`, as documented on this message's `$Properties`. */
                    deliverReadResult?: null;
                    /** `peerUnreachable`, as documented on this message's `$Properties`. */
                    peerUnreachable?: null;
                    /** `advanceClock`, as documented on this message's `$Properties`. */
                    advanceClock?: null;
                    /** `poll`, as documented on this message's `$Properties`. */
                    poll?: null;
                    /** `getStats`, as documented on this message's `$Properties`. */
                    getStats?: null;
                    /** `follow`, as documented on this message's `$Properties`. */
                    follow?: null;
                    /** `unfollow`, as documented on this message's `$Properties`. */
                    unfollow?: null;
                    /** `getView`, as documented on this message's `$Properties`. */
                    getView?: null;
                    /** `decodeStream`, as documented on this message's `$Properties`. */
                    decodeStream?: null }|{
                    /** `command`, as documented on this message's `$Properties`. */
                    command?: "readMemory";
                    /** `init`, as documented on this message's `$Properties`. */
                    init?: null;
                    /** `configure`, as documented on this message's `$Properties`. */
                    configure?: null;
                    /** `admit`, as documented on this message's `$Properties`. */
                    admit?: null;
                    /** `finishRequest`, as documented on this message's `$Properties`. */
                    finishRequest?: null;
                    /** `drainFailed`, as documented on this message's `$Properties`. */
                    drainFailed?: null;
                    /** `putItem`, as documented on this message's `$Properties`. */
                    putItem?: null;
                    /** `markReady`, as documented on this message's `$Properties`. */
                    markReady?: null;
                    /** `discard`, as documented on this message's `$Properties`. */
                    discard?: null;
                    /** `evict`, as documented on this message's `$Properties`. */
                    evict?: null;
                    /** `clearStore`, as documented on this message's `$Properties`. */
                    clearStore?: null;
                    /** `announce`, as documented on this message's `$Properties`. */
                    announce?: null;
                    /** `shutdown`, as documented on this message's `$Properties`. */
                    shutdown?: null;
                    /** `readMemory`, as documented on this message's `$Properties`. */
                    readMemory: ectp.conformance.v1.ReadMemory.$Shape;
                    /** `deliverMessage`, as documented on this message's `$Properties`. */
                    deliverMessage?: null;
                    /** `deliverReadResult`, as documented on this message's `$Properties`. */
                    deliverReadResult?: null;
                    /** `peerUnreachable`, as documented on this message's `$Properties`. */
                    peerUnreachable?: null;
                    /** `advanceClock`, as documented on this message's `$Properties`. */
                    advanceClock?: null;
                    /** `poll`, as documented on this message's `$Properties`. */
                    poll?: null;
                    /** `getStats`, as documented on this message's `$Properties`. */
                    getStats?: null;
                    /** `follow`, as documented on this message's `$Properties`. */
                    follow?: null;
                    /** `unfollow`, as documented on this message's `$Properties`. */
                    unfollow?: null;
                    /** `getView`, as documented on this message's `$Properties`. */
                    getView?: null;
                    /** `decodeStream`, as documented on this message's `$Properties`. */
                    decodeStream?: null }|{
                    /** `command`, as documented on this message's `$Properties`. */
                    command?: "deliverMessage";
                    /** `init`, as documented on this message's `$Properties`. */
                    init?: null;
                    /** `configure`, as documented on this message's `$Properties`. */
                    configure?: null;
                    /** `admit`, as documented on this message's `$Properties`. */
                    admit?: null;
                    /** `finishRequest`, as documented on this message's `$Properties`. */
                    finishRequest?: null;
                    /** `drainFailed`, as documented on this message's `$Properties`. */
                    drainFailed?: null;
                    /** `putItem`, as documented on this message's `$Properties`. */
                    putItem?: null;
                    /** `markReady`, as documented on this message's `$Properties`. */
                    markReady?: null;
                    /** `discard`, as documented on this message's `$Properties`. */
                    discard?: null;
                    /** `evict`, as documented on this message's `$Properties`. */
                    evict?: null;
                    /** `clearStore`, as documented on this message's `$Properties`. */
                    clearStore?: null;
                    /** `announce`, as documented on this message's `$Properties`. */
                    announce?: null;
                    /** `shutdown`, as documented on this message's `$Properties`. */
                    shutdown?: null;
                    /** `readMemory`, as documented on this message's `$Properties`. */
                    readMemory?: null;
                    /** `deliverMessage`, as documented on this message's `$Properties`. */
                    deliverMessage: ectp.conformance.v1.DeliverMessage.$Shape;
                    /** `deliverReadResult`, as documented on this message's `$Properties`. */
                    deliverReadResult?: null;
                    /** `peerUnreachable`, as documented on this message's `$Properties`. */
                    peerUnreachable?: null;
                    /** `advanceClock`, as documented on this message's `$Properties`. */
                    advanceClock?: null;
                    /** `poll`, as documented on this message's `$Properties`. */
                    poll?: null;
                    /** `getStats`, as documented on this message's `$Properties`. */
                    getStats?: null;
                    /** `follow`, as documented on this message's `$Properties`. */
                    follow?: null;
                    /** `unfollow`, as documented on this message's `$Properties`. */
                    unfollow?: null;
                    /** `getView`, as documented on this message's `$Properties`. */
                    getView?: null;
                    /** `decodeStream`, as documented on this message's `$Properties`. */
                    decodeStream?: null }|{
                    /** `command`, as documented on this message's `$Properties`. */
                    command?: "deliverReadResult";
                    /** `init`, as documented on this message's `$Properties`. */
                    init?: null;
                    /** `configure`, as documented on this message's `$Properties`. */
                    configure?: null;
                    /** `admit`, as documented on this message's `$Properties`. */
                    admit?: null;
                    /** `finishRequest`, as documented on this message's `$Properties`. */
                    finishRequest?: null;
                    /** `drainFailed`, as documented on this message's `$Properties`. */
                    drainFailed?: null;
                    /** `putItem`, as documented on this message's `$Properties`. */
                    putItem?: null;
                    /** `markReady`, as documented on this message's `$Properties`. */
                    markReady?: null;
                    /** `discard`, as documented on this message's `$Properties`. */
                    discard?: null;
                    /** `evict`, as documented on this message's `$Properties`. */
                    evict?: null;
                    /** `clearStore`, as documented on this message's `$Properties`. */
                    clearStore?: null;
                    /** `announce`, as documented on this message's `$Properties`. */
                    announce?: null;
                    /** `shutdown`, as documented on this message's `$Properties`. */
                    shutdown?: null;
                    /** `readMemory`, as documented on this message's `$Properties`. */
                    readMemory?: null;
                    /** `deliverMessage`, as documented on this message's `$Properties`. */
                    deliverMessage?: null;
                    /** `deliverReadResult`, as documented on this message's `$Properties`. */
                    deliverReadResult: ectp.conformance.v1.DeliverReadResult.$Shape;
                    /** `peerUnreachable`, as documented on this message's `$Properties`. */
                    peerUnreachable?: null;
                    /** `advanceClock`, as documented on this message's `$Properties`. */
                    advanceClock?: null;
                    /** `poll`, as documented on this message's `$Properties`. */
                    poll?: null;
                    /** `getStats`, as documented on this message's `$Properties`. */
                    getStats?: null;
                    /** `follow`, as documented on this message's `$Properties`. */
                    follow?: null;
                    /** `unfollow`, as documented on this message's `$Properties`. */
                    unfollow?: null;
                    /** `getView`, as documented on this message's `$Properties`. */
                    getView?: null;
                    /** `decodeStream`, as documented on this message's `$Properties`. */
                    decodeStream?: null }|{
                    /** `command`, as documented on this message's `$Properties`. */
                    command?: "peerUnreachable";
                    /** `init`, as documented on this message's `$Properties`. */
                    init?: null;
                    /** `configure`, as documented on this message's `$Properties`. */
                    configure?: null;
                    /** `admit`, as documented on this message's `$Properties`. */
                    admit?: null;
                    /** `finishRequest`, as documented on this message's `$Properties`. */
                    finishRequest?: null;
                    /** `drainFailed`, as documented on this message's `$Properties`. */
                    drainFailed?: null;
                    /** `putItem`, as documented on this message's `$Properties`. */
                    putItem?: null;
                    /** `markReady`, as documented on this message's `$Properties`. */
                    markReady?: null;
                    /** `discard`, as documented on this message's `$Properties`. */
                    discard?: null;
                    /** `evict`, as documented on this message's `$Properties`. */
                    evict?: null;
                    /** `clearStore`, as documented on this message's `$Properties`. */
                    clearStore?: null;
                    /** `announce`, as documented on this message's `$Properties`. */
                    announce?: null;
                    /** `shutdown`, as documented on this message's `$Properties`. */
                    shutdown?: null;
                    /** `readMemory`, as documented on this message's `$Properties`. */
                    readMemory?: null;
                    /** `deliverMessage`, as documented on this message's `$Properties`. */
                    deliverMessage?: null;
                    /** `deliverReadResult`, as documented on this message's `$Properties`. */
                    deliverReadResult?: null;
                    /** `peerUnreachable`, as documented on this message's `$Properties`. */
                    peerUnreachable: ectp.conformance.v1.PeerUnreachable.$Shape;
                    /** `advanceClock`, as documented on this message's `$Properties`. */
                    advanceClock?: null;
                    /** `poll`, as documented on this message's `$Properties`. */
                    poll?: null;
                    /** `getStats`, as documented on this message's `$Properties`. */
                    getStats?: null;
                    /** `follow`, as documented on this message's `$Properties`. */
                    follow?: null;
                    /** `unfollow`, as documented on this message's `$Properties`. */
                    unfollow?: null;
                    /** `getView`, as documented on this message's `$Properties`. */
                    getView?: null;
                    /** `decodeStream`, as documented on this message's `$Properties`. */
                    decodeStream?: null }|{
                    /** `command`, as documented on this message's `$Properties`. */
                    command?: "advanceClock";
                    /** `init`, as documented on this message's `$Properties`. */
                    init?: null;
                    /** `configure`, as documented on this message's `$Properties`. */
                    configure?: null;
                    /** `admit`, as documented on this message's `$Properties`. */
                    admit?: null;
                    /** `finishRequest`, as documented on this message's `$Properties`. */
                    finishRequest?: null;
                    /** `drainFailed`, as documented on this message's `$Properties`. */
                    drainFailed?: null;
                    /** `putItem`, as documented on this message's `$Properties`. */
                    putItem?: null;
                    /** `markReady`, as documented on this message's `$Properties`. */
                    markReady?: null;
                    /** `discard`, as documented on this message's `$Properties`. */
                    discard?: null;
                    /** `evict`, as documented on this message's `$Properties`. */
                    evict?: null;
                    /** `clearStore`, as documented on this message's `$Properties`. */
                    clearStore?: null;
                    /** `announce`, as documented on this message's `$Properties`. */
                    announce?: null;
                    /** `shutdown`, as documented on this message's `$Properties`. */
                    shutdown?: null;
                    /** `readMemory`, as documented on this message's `$Properties`. */
                    readMemory?: null;
                    /** `deliverMessage`, as documented on this message's `$Properties`. */
                    deliverMessage?: null;
                    /** `deliverReadResult`, as documented on this message's `$Properties`. */
                    deliverReadResult?: null;
                    /** `peerUnreachable`, as documented on this message's `$Properties`. */
                    peerUnreachable?: null;
                    /** `advanceClock`, as documented on this message's `$Properties`. */
                    advanceClock: ectp.conformance.v1.AdvanceClock.$Shape;
                    /** `poll`, as documented on this message's `$Properties`. */
                    poll?: null;
                    /** `getStats`, as documented on this message's `$Properties`. */
                    getStats?: null;
                    /** `follow`, as documented on this message's `$Properties`. */
                    follow?: null;
                    /** `unfollow`, as documented on this message's `$Properties`. */
                    unfollow?: null;
                    /** `getView`, as documented on this message's `$Properties`. */
                    getView?: null;
                    /** `decodeStream`, as documented on this message's `$Properties`. */
                    decodeStream?: null }|{
                    /** `command`, as documented on this message's `$Properties`. */
                    command?: "poll";
                    /** `init`, as documented on this message's `$Properties`. */
                    init?: null;
                    /** `configure`, as documented on this message's `$Properties`. */
                    configure?: null;
                    /** `admit`, as documented on this message's `$Properties`. */
                    admit?: null;
                    /** `finishRequest`, as documented on this message's `$Properties`. */
                    finishRequest?: null;
                    /** `drainFailed`, as documented on this message's `$Properties`. */
                    drainFailed?: null;
                    /** `putItem`, as documented on this message's `$Properties`. */
                    putItem?: null;
                    /** `markReady`, as documented on this message's `$Properties`. */
                    markReady?: null;
                    /** `discard`, as documented on this message's `$Properties`. */
                    discard?: null;
                    /** `evict`, as documented on this message's `$Properties`. */
                    evict?: null;
                    /** `clearStore`, as documented on this message's `$Properties`. */
                    clearStore?: null;
                    /** `announce`, as documented on this message's `$Properties`. */
                    announce?: null;
                    /** `shutdown`, as documented on this message's `$Properties`. */
                    shutdown?: null;
                    /** `readMemory`, as documented on this message's `$Properties`. */
                    readMemory?: null;
                    /** `deliverMessage`, as documented on this message's `$Properties`. */
                    deliverMessage?: null;
                    /** `deliverReadResult`, as documented on this message's `$Properties`. */
                    deliverReadResult?: null;
                    /** `peerUnreachable`, as documented on this message's `$Properties`. */
                    peerUnreachable?: null;
                    /** `advanceClock`, as documented on this message's `$Properties`. */
                    advanceClock?: null;
                    /** `poll`, as documented on this message's `$Properties`. */
                    poll: ectp.conformance.v1.Poll.$Shape;
                    /** `getStats`, as documented on this message's `$Properties`. */
                    getStats?: null;
                    /** `follow`, as documented on this message's `$Properties`. */
                    follow?: null;
                    /** `unfollow`, as documented on this message's `$Properties`. */
                    unfollow?: null;
                    /** `getView`, as documented on this message's `$Properties`. */
                    getView?: null;
                    /** `decodeStream`, as documented on this message's `$Properties`. */
                    decodeStream?: null }|{
                    /** `command`, as documented on this message's `$Properties`. */
                    command?: "getStats";
                    /** `init`, as documented on this message's `$Properties`. */
                    init?: null;
                    /** `configure`, as documented on this message's `$Properties`. */
                    configure?: null;
                    /** `admit`, as documented on this message's `$Properties`. */
                    admit?: null;
                    /** `finishRequest`, as documented on this message's `$Properties`. */
                    finishRequest?: null;
                    /** `drainFailed`, as documented on this message's `$Properties`. */
                    drainFailed?: null;
                    /** `putItem`, as documented on this message's `$Properties`. */
                    putItem?: null;
                    /** `markReady`, as documented on this message's `$Properties`. */
                    markReady?: null;
                    /** `discard`, as documented on this message's `$Properties`. */
                    discard?: null;
                    /** `evict`, as documented on this message's `$Properties`. */
                    evict?: null;
                    /** `clearStore`, as documented on this message's `$Properties`. */
                    clearStore?: null;
                    /** `announce`, as documented on this message's `$Properties`. */
                    announce?: null;
                    /** `shutdown`, as documented on this message's `$Properties`. */
                    shutdown?: null;
                    /** `readMemory`, as documented on this message's `$Properties`. */
                    readMemory?: null;
                    /** `deliverMessage`, as documented on this message's `$Properties`. */
                    deliverMessage?: null;
                    /** `deliverReadResult`, as documented on this message's `$Properties`. */
                    deliverReadResult?: null;
                    /** `peerUnreachable`, as documented on this message's `$Properties`. */
                    peerUnreachable?: null;
                    /** `advanceClock`, as documented on this message's `$Properties`. */
                    advanceClock?: null;
                    /** `poll`, as documented on this message's `$Properties`. */
                    poll?: null;
                    /** `getStats`, as documented on this message's `$Properties`. */
                    getStats: ectp.conformance.v1.GetStats.$Shape;
                    /** `follow`, as documented on this message's `$Properties`. */
                    follow?: null;
                    /** `unfollow`, as documented on this message's `$Properties`. */
                    unfollow?: null;
                    /** `getView`, as documented on this message's `$Properties`. */
                    getView?: null;
                    /** `decodeStream`, as documented on this message's `$Properties`. */
                    decodeStream?: null }|{
                    /** `command`, as documented on this message's `$Properties`. */
                    command?: "follow";
                    /** `init`, as documented on this message's `$Properties`. */
                    init?: null;
                    /** `configure`, as documented on this message's `$Properties`. */
                    configure?: null;
                    /** `admit`, as documented on this message's `$Properties`. */
                    admit?: null;
                    /** `finishRequest`, as documented on this message's `$Properties`. */
                    finishRequest?: null;
                    /** `drainFailed`, as documented on this message's `$Properties`. */
                    drainFailed?: null;
                    /** `putItem`, as documented on this message's `$Properties`. */
                    putItem?: null;
                    /** `markReady`, as documented on this message's `$Properties`. */
                    markReady?: null;
                    /** `discard`, as documented on this message's `$Properties`. */
                    discard?: null;
                    /** `evict`, as documented on this message's `$Properties`. */
                    evict?: null;
                    /** `clearStore`, as documented on this message's `$Properties`. */
                    clearStore?: null;
                    /** `announce`, as documented on this message's `$Properties`. */
                    announce?: null;
                    /** `shutdown`, as documented on this message's `$Properties`. */
                    shutdown?: null;
                    /** `readMemory`, as documented on this message's `$Properties`. */
                    readMemory?: null;
                    /** `deliverMessage`, as documented on this message's `$Properties`. */
                    deliverMessage?: null;
                    /** `deliverReadResult`, as documented on this message's `$Properties`. */
                    deliverReadResult?: null;
                    /** `peerUnreachable`, as documented on this message's `$Properties`. */
                    peerUnreachable?: null;
                    /** `advanceClock`, as documented on this message's `$Properties`. */
                    advanceClock?: null;
                    /** `poll`, as documented on this message's `$Properties`. */
                    poll?: null;
                    /** `getStats`, as documented on this message's `$Properties`. */
                    getStats?: null;
                    /** `follow`, as documented on this message's `$Properties`. */
                    follow: ectp.conformance.v1.Follow.$Shape;
                    /** `unfollow`, as documented on this message's `$Properties`. */
                    unfollow?: null;
                    /** `getView`, as documented on this message's `$Properties`. */
                    getView?: null;
                    /** `decodeStream`, as documented on this message's `$Properties`. */
                    decodeStream?: null }|{
                    /** `command`, as documented on this message's `$Properties`. */
                    command?: "unfollow";
                    /** `init`, as documented on this message's `$Properties`. */
                    init?: null;
                    /** `configure`, as documented on this message's `$Properties`. */
                    configure?: null;
                    /** `admit`, as documented on this message's `$Properties`. */
                    admit?: null;
                    /** `finishRequest`, as documented on this message's `$Properties`. */
                    finishRequest?: null;
                    /** `drainFailed`, as documented on this message's `$Properties`. */
                    drainFailed?: null;
                    /** `putItem`, as documented on this message's `$Properties`. */
                    putItem?: null;
                    /** `markReady`, as documented on this message's `$Properties`. */
                    markReady?: null;
                    /** `discard`, as documented on this message's `$Properties`. */
                    discard?: null;
                    /** `evict`, as documented on this message's `$Properties`. */
                    evict?: null;
                    /** `clearStore`, as documented on this message's `$Properties`. */
                    clearStore?: null;
                    /** `announce`, as documented on this message's `$Properties`. */
                    announce?: null;
                    /** `shutdown`, as documented on this message's `$Properties`. */
                    shutdown?: null;
                    /** `readMemory`, as documented on this message's `$Properties`. */
                    readMemory?: null;
                    /** `deliverMessage`, as documented on this message's `$Properties`. */
                    deliverMessage?: null;
                    /** `deliverReadResult`, as documented on this message's `$Properties`. */
                    deliverReadResult?: null;
                    /** `peerUnreachable`, as documented on this message's `$Properties`. */
                    peerUnreachable?: null;
                    /** `advanceClock`, as documented on this message's `$Properties`. */
                    advanceClock?: null;
                    /** `poll`, as documented on this message's `$Properties`. */
                    poll?: null;
                    /** `getStats`, as documented on this message's `$Properties`. */
                    getStats?: null;
                    /** `follow`, as documented on this message's `$Properties`. */
                    follow?: null;
                    /** `unfollow`, as documented on this message's `$Properties`. */
                    unfollow: ectp.conformance.v1.Unfollow.$Shape;
                    /** `getView`, as documented on this message's `$Properties`. */
                    getView?: null;
                    /** `decodeStream`, as documented on this message's `$Properties`. */
                    decodeStream?: null }|{
                    /** `command`, as documented on this message's `$Properties`. */
                    command?: "getView";
                    /** `init`, as documented on this message's `$Properties`. */
                    init?: null;
                    /** `configure`, as documented on this message's `$Properties`. */
                    configure?: null;
                    /** `admit`, as documented on this message's `$Properties`. */
                    admit?: null;
                    /** `finishRequest`, as documented on this message's `$Properties`. */
                    finishRequest?: null;
                    /** `drainFailed`, as documented on this message's `$Properties`. */
                    drainFailed?: null;
                    /** `putItem`, as documented on this message's `$Properties`. */
                    putItem?: null;
                    /** `markReady`, as documented on this message's `$Properties`. */
                    markReady?: null;
                    /** `discard`, as documented on this message's `$Properties`. */
                    discard?: null;
                    /** `evict`, as documented on this message's `$Properties`. */
                    evict?: null;
                    /** `clearStore`, as documented on this message's `$Properties`. */
                    clearStore?: null;
                    /** `announce`, as documented on this message's `$Properties`. */
                    announce?: null;
                    /** `shutdown`, as documented on this message's `$Properties`. */
                    shutdown?: null;
                    /** `readMemory`, as documented on this message's `$Properties`. */
                    readMemory?: null;
                    /** `deliverMessage`, as documented on this message's `$Properties`. */
                    deliverMessage?: null;
                    /** `deliverReadResult`, as documented on this message's `$Properties`. */
                    deliverReadResult?: null;
                    /** `peerUnreachable`, as documented on this message's `$Properties`. */
                    peerUnreachable?: null;
                    /** `advanceClock`, as documented on this message's `$Properties`. */
                    advanceClock?: null;
                    /** `poll`, as documented on this message's `$Properties`. */
                    poll?: null;
                    /** `getStats`, as documented on this message's `$Properties`. */
                    getStats?: null;
                    /** `follow`, as documented on this message's `$Properties`. */
                    follow?: null;
                    /** `unfollow`, as documented on this message's `$Properties`. */
                    unfollow?: null;
                    /** `getView`, as documented on this message's `$Properties`. */
                    getView: ectp.conformance.v1.GetView.$Shape;
                    /** `decodeStream`, as documented on this message's `$Properties`. */
                    decodeStream?: null }|{
                    /** `command`, as documented on this message's `$Properties`. */
                    command?: "decodeStream";
                    /** `init`, as documented on this message's `$Properties`. */
                    init?: null;
                    /** `configure`, as documented on this message's `$Properties`. */
                    configure?: null;
                    /** `admit`, as documented on this message's `$Properties`. */
                    admit?: null;
                    /** `finishRequest`, as documented on this message's `$Properties`. */
                    finishRequest?: null;
                    /** `drainFailed`, as documented on this message's `$Properties`. */
                    drainFailed?: null;
                    /** `putItem`, as documented on this message's `$Properties`. */
                    putItem?: null;
                    /** `markReady`, as documented on this message's `$Properties`. */
                    markReady?: null;
                    /** `discard`, as documented on this message's `$Properties`. */
                    discard?: null;
                    /** `evict`, as documented on this message's `$Properties`. */
                    evict?: null;
                    /** `clearStore`, as documented on this message's `$Properties`. */
                    clearStore?: null;
                    /** `announce`, as documented on this message's `$Properties`. */
                    announce?: null;
                    /** `shutdown`, as documented on this message's `$Properties`. */
                    shutdown?: null;
                    /** `readMemory`, as documented on this message's `$Properties`. */
                    readMemory?: null;
                    /** `deliverMessage`, as documented on this message's `$Properties`. */
                    deliverMessage?: null;
                    /** `deliverReadResult`, as documented on this message's `$Properties`. */
                    deliverReadResult?: null;
                    /** `peerUnreachable`, as documented on this message's `$Properties`. */
                    peerUnreachable?: null;
                    /** `advanceClock`, as documented on this message's `$Properties`. */
                    advanceClock?: null;
                    /** `poll`, as documented on this message's `$Properties`. */
                    poll?: null;
                    /** `getStats`, as documented on this message's `$Properties`. */
                    getStats?: null;
                    /** `follow`, as documented on this message's `$Properties`. */
                    follow?: null;
                    /** `unfollow`, as documented on this message's `$Properties`. */
                    unfollow?: null;
                    /** `getView`, as documented on this message's `$Properties`. */
                    getView?: null;
                    /** `decodeStream`, as documented on this message's `$Properties`. */
                    decodeStream: ectp.conformance.v1.DecodeStream.$Shape })
                );
            }

            /**
             * Properties of a TesteeResponse.
             * @deprecated Use ectp.conformance.v1.TesteeResponse.$Properties instead.
             */
            interface ITesteeResponse extends ectp.conformance.v1.TesteeResponse.$Properties {
            }

            /** One response of the testee: exactly one per request, in request order. */
            class TesteeResponse {

                /**
                 * Constructs a new TesteeResponse.
                 * @param [properties] Properties to set
                 */
                constructor(properties?: ectp.conformance.v1.TesteeResponse.$Properties);

                /** Unknown fields preserved while decoding when enabled */
                $unknowns?: Uint8Array[];

                /** The command_id of the request answered. */
                commandId: number;

                /** The command succeeded and has no data to return. */
                ok?: (ectp.conformance.v1.Ok.$Properties|null|undefined);

                /** Answer to Init. */
                init?: (ectp.conformance.v1.InitResult.$Properties|null|undefined);

                /** Answer to Admit. */
                admit?: (ectp.conformance.v1.AdmitResult.$Properties|null|undefined);

                /** Answer to DrainFailed. */
                drainFailed?: (ectp.conformance.v1.DrainFailedResult.$Properties|null|undefined);

                /** Answer to PutItem. */
                putItem?: (ectp.conformance.v1.PutItemResult.$Properties|null|undefined);

                /** Answer to Announce. */
                announce?: (ectp.conformance.v1.AnnounceResult.$Properties|null|undefined);

                /** Answer to ReadMemory. */
                readMemory?: (ectp.conformance.v1.ReadMemoryResult.$Properties|null|undefined);

                /** Answer to Poll. */
                poll?: (ectp.conformance.v1.PollResult.$Properties|null|undefined);

                /** Answer to GetStats. */
                stats?: (ectp.conformance.v1.Stats.$Properties|null|undefined);

                /**
                 * The command needs an optional feature the implementation lacks. The
                 * runner skips the case (or fails it if the features file claims it).
                 */
                unsupported?: (ectp.conformance.v1.Unsupported.$Properties|null|undefined);

                /**
                 * The implementation refused or failed the command. For Configure this
                 * is the expected answer to an invalid configuration [C11]; for any
                 * other command it means the implementation threw [I1].
                 */
                error?: (ectp.conformance.v1.Error.$Properties|null|undefined);

                /** Answer to GetView. */
                view?: (ectp.conformance.v1.ViewResult.$Properties|null|undefined);

                /** Answer to DecodeStream. */
                decodeStream?: (ectp.conformance.v1.DecodeStreamResult.$Properties|null|undefined);

                /**
                 * The result. Exactly one is set. A response with none set is treated by
                 * the runner as a malformed response (the case fails).
                 */
                result?: ("ok"|"init"|"admit"|"drainFailed"|"putItem"|"announce"|"readMemory"|"poll"|"stats"|"unsupported"|"error"|"view"|"decodeStream");

                /**
                 * Creates a new TesteeResponse instance using the specified properties.
                 * @param [properties] Properties to set
                 * @returns TesteeResponse instance
                 */
                static create(properties: ectp.conformance.v1.TesteeResponse.$Shape): ectp.conformance.v1.TesteeResponse & ectp.conformance.v1.TesteeResponse.$Shape;
                static create(properties?: ectp.conformance.v1.TesteeResponse.$Properties): ectp.conformance.v1.TesteeResponse;

                /**
                 * Encodes the specified TesteeResponse message. Does not implicitly {@link ectp.conformance.v1.TesteeResponse.verify|verify} messages.
                 * @param message TesteeResponse message or plain object to encode
                 * @param [writer] Writer to encode to
                 * @returns Writer
                 */
                static encode(message: ectp.conformance.v1.TesteeResponse.$Properties, writer?: $protobuf.Writer): $protobuf.Writer;

                /**
                 * Encodes the specified TesteeResponse message, length delimited. Does not implicitly {@link ectp.conformance.v1.TesteeResponse.verify|verify} messages.
                 * @param message TesteeResponse message or plain object to encode
                 * @param [writer] Writer to encode to
                 * @returns Writer
                 */
                static encodeDelimited(message: ectp.conformance.v1.TesteeResponse.$Properties, writer?: $protobuf.Writer): $protobuf.Writer;

                /**
                 * Decodes a TesteeResponse message from the specified reader or buffer.
                 * @param reader Reader or buffer to decode from
                 * @param [length] Message length if known beforehand
                 * @returns {ectp.conformance.v1.TesteeResponse & ectp.conformance.v1.TesteeResponse.$Shape} TesteeResponse
                 * @throws {Error} If the payload is not a reader or valid buffer
                 * @throws {$protobuf.util.ProtocolError} If required fields are missing
                 */
                static decode(reader: ($protobuf.Reader|Uint8Array), length?: number): ectp.conformance.v1.TesteeResponse & ectp.conformance.v1.TesteeResponse.$Shape;

                /**
                 * Decodes a TesteeResponse message from the specified reader or buffer, length delimited.
                 * @param reader Reader or buffer to decode from
                 * @returns {ectp.conformance.v1.TesteeResponse & ectp.conformance.v1.TesteeResponse.$Shape} TesteeResponse
                 * @throws {Error} If the payload is not a reader or valid buffer
                 * @throws {$protobuf.util.ProtocolError} If required fields are missing
                 */
                static decodeDelimited(reader: ($protobuf.Reader|Uint8Array)): ectp.conformance.v1.TesteeResponse & ectp.conformance.v1.TesteeResponse.$Shape;

                /**
                 * Verifies a TesteeResponse message.
                 * @param message Plain object to verify
                 * @returns `null` if valid, otherwise the reason why it is not
                 */
                static verify(message: { [k: string]: any }): (string|null);

                /**
                 * Creates a TesteeResponse message from a plain object. Also converts values to their respective internal types.
                 * @param object Plain object
                 * @returns TesteeResponse
                 */
                static fromObject(object: { [k: string]: any }): ectp.conformance.v1.TesteeResponse;

                /**
                 * Creates a plain object from a TesteeResponse message. Also converts values to other types if specified.
                 * @param message TesteeResponse
                 * @param [options] Conversion options
                 * @returns Plain object
                 */
                static toObject(message: ectp.conformance.v1.TesteeResponse, options?: $protobuf.IConversionOptions): { [k: string]: any };

                /**
                 * Converts this TesteeResponse to JSON.
                 * @returns JSON object
                 */
                toJSON(): { [k: string]: any };

                /**
                 * Gets the type url for TesteeResponse
                 * @param [prefix] Custom type url prefix, defaults to `"type.googleapis.com"`
                 * @returns The type url
                 */
                static getTypeUrl(prefix?: string): string;
            }

            namespace TesteeResponse {

                /** Properties of a TesteeResponse. */
                interface $Properties {

                    /** The command_id of the request answered. */
                    commandId?: (number|null|undefined);

                    /** The command succeeded and has no data to return. */
                    ok?: (ectp.conformance.v1.Ok.$Properties|null|undefined);

                    /** Answer to Init. */
                    init?: (ectp.conformance.v1.InitResult.$Properties|null|undefined);

                    /** Answer to Admit. */
                    admit?: (ectp.conformance.v1.AdmitResult.$Properties|null|undefined);

                    /** Answer to DrainFailed. */
                    drainFailed?: (ectp.conformance.v1.DrainFailedResult.$Properties|null|undefined);

                    /** Answer to PutItem. */
                    putItem?: (ectp.conformance.v1.PutItemResult.$Properties|null|undefined);

                    /** Answer to Announce. */
                    announce?: (ectp.conformance.v1.AnnounceResult.$Properties|null|undefined);

                    /** Answer to ReadMemory. */
                    readMemory?: (ectp.conformance.v1.ReadMemoryResult.$Properties|null|undefined);

                    /** Answer to Poll. */
                    poll?: (ectp.conformance.v1.PollResult.$Properties|null|undefined);

                    /** Answer to GetStats. */
                    stats?: (ectp.conformance.v1.Stats.$Properties|null|undefined);

                    /**
                     * The command needs an optional feature the implementation lacks. The
                     * runner skips the case (or fails it if the features file claims it).
                     */
                    unsupported?: (ectp.conformance.v1.Unsupported.$Properties|null|undefined);

                    /**
                     * The implementation refused or failed the command. For Configure this
                     * is the expected answer to an invalid configuration [C11]; for any
                     * other command it means the implementation threw [I1].
                     */
                    error?: (ectp.conformance.v1.Error.$Properties|null|undefined);

                    /** Answer to GetView. */
                    view?: (ectp.conformance.v1.ViewResult.$Properties|null|undefined);

                    /** Answer to DecodeStream. */
                    decodeStream?: (ectp.conformance.v1.DecodeStreamResult.$Properties|null|undefined);

                    /**
                     * The result. Exactly one is set. A response with none set is treated by
                     * the runner as a malformed response (the case fails).
                     */
                    result?: ("ok"|"init"|"admit"|"drainFailed"|"putItem"|"announce"|"readMemory"|"poll"|"stats"|"unsupported"|"error"|"view"|"decodeStream");

                    /** Unknown fields preserved while decoding when enabled */
                    $unknowns?: Uint8Array[];
                }

                /** Narrowed shape of a TesteeResponse. */
                type $Shape = {
                  /** `commandId`, as documented on this message's `$Properties`. */
                  commandId?: number|null;
                  /** `ok`, as documented on this message's `$Properties`. */
                  ok?: ectp.conformance.v1.Ok.$Shape|null;
                  /** `init`, as documented on this message's `$Properties`. */
                  init?: ectp.conformance.v1.InitResult.$Shape|null;
                  /** `admit`, as documented on this message's `$Properties`. */
                  admit?: ectp.conformance.v1.AdmitResult.$Shape|null;
                  /** `drainFailed`, as documented on this message's `$Properties`. */
                  drainFailed?: ectp.conformance.v1.DrainFailedResult.$Shape|null;
                  /** `putItem`, as documented on this message's `$Properties`. */
                  putItem?: ectp.conformance.v1.PutItemResult.$Shape|null;
                  /** `announce`, as documented on this message's `$Properties`. */
                  announce?: ectp.conformance.v1.AnnounceResult.$Shape|null;
                  /** `readMemory`, as documented on this message's `$Properties`. */
                  readMemory?: ectp.conformance.v1.ReadMemoryResult.$Shape|null;
                  /** `poll`, as documented on this message's `$Properties`. */
                  poll?: ectp.conformance.v1.PollResult.$Shape|null;
                  /** `stats`, as documented on this message's `$Properties`. */
                  stats?: ectp.conformance.v1.Stats.$Shape|null;
                  /** `unsupported`, as documented on this message's `$Properties`. */
                  unsupported?: ectp.conformance.v1.Unsupported.$Shape|null;
                  /** `error`, as documented on this message's `$Properties`. */
                  error?: ectp.conformance.v1.Error.$Shape|null;
                  /** `view`, as documented on this message's `$Properties`. */
                  view?: ectp.conformance.v1.ViewResult.$Shape|null;
                  /** `decodeStream`, as documented on this message's `$Properties`. */
                  decodeStream?: ectp.conformance.v1.DecodeStreamResult.$Shape|null;
                  /** `$unknowns`, as documented on this message's `$Properties`. */
                  $unknowns?: Uint8Array[];
                } & (
                  ({
                    /** `result`, as documented on this message's `$Properties`. */
                    result?: undefined;
                    /** `ok`, as documented on this message's `$Properties`. */
                    ok?: null;
                    /** `init`, as documented on this message's `$Properties`. */
                    init?: null;
                    /** `admit`, as documented on this message's `$Properties`. */
                    admit?: null;
                    /** `drainFailed`, as documented on this message's `$Properties`. */
                    drainFailed?: null;
                    /** `putItem`, as documented on this message's `$Properties`. */
                    putItem?: null;
                    /** `announce`, as documented on this message's `$Properties`. */
                    announce?: null;
                    /** `readMemory`, as documented on this message's `$Properties`. */
                    readMemory?: null;
                    /** `poll`, as documented on this message's `$Properties`. */
                    poll?: null;
                    /** `stats`, as documented on this message's `$Properties`. */
                    stats?: null;
                    /** `unsupported`, as documented on this message's `$Properties`. */
                    unsupported?: null;
                    /** `error`, as documented on this message's `$Properties`. */
                    error?: null;
                    /** `view`, as documented on this message's `$Properties`. */
                    view?: null;
                    /** `decodeStream`, as documented on this message's `$Properties`. */
                    decodeStream?: null }|{
                    /** `result`, as documented on this message's `$Properties`. */
                    result?: "ok";
                    /** `ok`, as documented on this message's `$Properties`. */
                    ok: ectp.conformance.v1.Ok.$Shape;
                    /** `init`, as documented on this message's `$Properties`. */
                    init?: null;
                    /** `admit`, as documented on this message's `$Properties`. */
                    admit?: null;
                    /** `drainFailed`, as documented on this message's `$Properties`. */
                    drainFailed?: null;
                    /** `putItem`, as documented on this message's `$Properties`. */
                    putItem?: null;
                    /** `announce`, as documented on this message's `$Properties`. */
                    announce?: null;
                    /** `readMemory`, as documented on this message's `$Properties`. */
                    readMemory?: null;
                    /** `poll`, as documented on this message's `$Properties`. */
                    poll?: null;
                    /** `stats`, as documented on this message's `$Properties`. */
                    stats?: null;
                    /** `unsupported`, as documented on this message's `$Properties`. */
                    unsupported?: null;
                    /** `error`, as documented on this message's `$Properties`. */
                    error?: null;
                    /** `view`, as documented on this message's `$Properties`. */
                    view?: null;
                    /** `decodeStream`, as documented on this message's `$Properties`. */
                    decodeStream?: null }|{
                    /** `result`, as documented on this message's `$Properties`. */
                    result?: "init";
                    /** `ok`, as documented on this message's `$Properties`. */
                    ok?: null;
                    /** `init`, as documented on this message's `$Properties`. */
                    init: ectp.conformance.v1.InitResult.$Shape;
                    /** `admit`, as documented on this message's `$Properties`. */
                    admit?: null;
                    /** `drainFailed`, as documented on this message's `$Properties`. */
                    drainFailed?: null;
                    /** `putItem`, as documented on this message's `$Properties`. */
                    putItem?: null;
                    /** `announce`, as documented on this message's `$Properties`. */
                    announce?: null;
                    /** `readMemory`, as documented on this message's `$Properties`. */
                    readMemory?: null;
                    /** `poll`, as documented on this message's `$Properties`. */
                    poll?: null;
                    /** `stats`, as documented on this message's `$Properties`. */
                    stats?: null;
                    /** `unsupported`, as documented on this message's `$Properties`. */
                    unsupported?: null;
                    /** `error`, as documented on this message's `$Properties`. */
                    error?: null;
                    /** `view`, as documented on this message's `$Properties`. */
                    view?: null;
                    /** `decodeStream`, as documented on this message's `$Properties`. */
                    decodeStream?: null }|{
                    /** `result`, as documented on this message's `$Properties`. */
                    result?: "admit";
                    /** `ok`, as documented on this message's `$Properties`. */
                    ok?: null;
                    /** `init`, as documented on this message's `$Properties`. */
                    init?: null;
                    /** `admit`, as documented on this message's `$Properties`. */
                    admit: ectp.conformance.v1.AdmitResult.$Shape;
                    /** `drainFailed`, as documented on this message's `$Properties`. */
                    drainFailed?: null;
                    /** `putItem`, as documented on this message's `$Properties`. */
                    putItem?: null;
                    /** `announce`, as documented on this message's `$Properties`. */
                    announce?: null;
                    /** `readMemory`, as documented on this message's `$Properties`. */
                    readMemory?: null;
                    /** `poll`, as documented on this message's `$Properties`. */
                    poll?: null;
                    /** `stats`, as documented on this message's `$Properties`. */
                    stats?: null;
                    /** `unsupported`, as documented on this message's `$Properties`. */
                    unsupported?: null;
                    /** `error`, as documented on this message's `$Properties`. */
                    error?: null;
                    /** `view`, as documented on this message's `$Properties`. */
                    view?: null;
                    /** `decodeStream`, as documented on this message's `$Properties`. */
                    decodeStream?: null }|{
                    /** `result`, as documented on this message's `$Properties`. */
                    result?: "drainFailed";
                    /** `ok`, as documented on this message's `$Properties`. */
                    ok?: null;
                    /** `init`, as documented on this message's `$Properties`. */
                    init?: null;
                    /** `admit`, as documented on this message's `$Properties`. */
                    admit?: null;
                    /** `drainFailed`, as documented on this message's `$Properties`. */
                    drainFailed: ectp.conformance.v1.DrainFailedResult.$Shape;
                    /** `putItem`, as documented on this message's `$Properties`. */
                    putItem?: null;
                    /** `announce`, as documented on this message's `$Properties`. */
                    announce?: null;
                    /** `readMemory`, as documented on this message's `$Properties`. */
                    readMemory?: null;
                    /** `poll`, as documented on this message's `$Properties`. */
                    poll?: null;
                    /** `stats`, as documented on this message's `$Properties`. */
                    stats?: null;
                    /** `unsupported`, as documented on this message's `$Properties`. */
                    unsupported?: null;
                    /** `error`, as documented on this message's `$Properties`. */
                    error?: null;
                    /** `view`, as documented on this message's `$Properties`. */
                    view?: null;
                    /** `decodeStream`, as documented on this message's `$Properties`. */
                    decodeStream?: null }|{
                    /** `result`, as documented on this message's `$Properties`. */
                    result?: "putItem";
                    /** `ok`, as documented on this message's `$Properties`. */
                    ok?: null;
                    /** `init`, as documented on this message's `$Properties`. */
                    init?: null;
                    /** `admit`, as documented on this message's `$Properties`. */
                    admit?: null;
                    /** `drainFailed`, as documented on this message's `$Properties`. */
                    drainFailed?: null;
                    /** `putItem`, as documented on this message's `$Properties`. */
                    putItem: ectp.conformance.v1.PutItemResult.$Shape;
                    /** `announce`, as documented on this message's `$Properties`. */
                    announce?: null;
                    /** `readMemory`, as documented on this message's `$Properties`. */
                    readMemory?: null;
                    /** `poll`, as documented on this message's `$Properties`. */
                    poll?: null;
                    /** `stats`, as documented on this message's `$Properties`. */
                    stats?: null;
                    /** `unsupported`, as documented on this message's `$Properties`. */
                    unsupported?: null;
                    /** `error`, as documented on this message's `$Properties`. */
                    error?: null;
                    /** `view`, as documented on this message's `$Properties`. */
                    view?: null;
                    /** `decodeStream`, as documented on this message's `$Properties`. */
                    decodeStream?: null }|{
                    /** `result`, as documented on this message's `$Properties`. */
                    result?: "announce";
                    /** `ok`, as documented on this message's `$Properties`. */
                    ok?: null;
                    /** `init`, as documented on this message's `$Properties`. */
                    init?: null;
                    /** `admit`, as documented on this message's `$Properties`. */
                    admit?: null;
                    /** `drainFailed`, as documented on this message's `$Properties`. */
                    drainFailed?: null;
                    /** `putItem`, as documented on this message's `$Properties`. */
                    putItem?: null;
                    /** `announce`, as documented on this message's `$Properties`. */
                    announce: ectp.conformance.v1.AnnounceResult.$Shape;
                    /** `readMemory`, as documented on this message's `$Properties`. */
                    readMemory?: null;
                    /** `poll`, as documented on this message's `$Properties`. */
                    poll?: null;
                    /** `stats`, as documented on this message's `$Properties`. */
                    stats?: null;
                    /** `unsupported`, as documented on this message's `$Properties`. */
                    unsupported?: null;
                    /** `error`, as documented on this message's `$Properties`. */
                    error?: null;
                    /** `view`, as documented on this message's `$Properties`. */
                    view?: null;
                    /** `decodeStream`, as documented on this message's `$Properties`. */
                    decodeStream?: null }|{
                    /** `result`, as documented on this message's `$Properties`. */
                    result?: "readMemory";
                    /** `ok`, as documented on this message's `$Properties`. */
                    ok?: null;
                    /** `init`, as documented on this message's `$Properties`. */
                    init?: null;
                    /** `admit`, as documented on this message's `$Properties`. */
                    admit?: null;
                    /** `drainFailed`, as documented on this message's `$Properties`. */
                    drainFailed?: null;
                    /** `putItem`, as documented on this message's `$Properties`. */
                    putItem?: null;
                    /** `announce`, as documented on this message's `$Properties`. */
                    announce?: null;
                    /** `readMemory`, as documented on this message's `$Properties`. */
                    readMemory: ectp.conformance.v1.ReadMemoryResult.$Shape;
                    /** `poll`, as documented on this message's `$Properties`. */
                    poll?: null;
                    /** `stats`, as documented on this message's `$Properties`. */
                    stats?: null;
                    /** `unsupported`, as documented on this message's `$Properties`. */
                    unsupported?: null;
                    /** `error`, as documented on this message's `$Properties`. */
                    error?: null;
                    /** `view`, as documented on this message's `$Properties`. */
                    view?: null;
                    /** `decodeStream`, as documented on this message's `$Properties`. */
                    decodeStream?: null }|{
                    /** `result`, as documented on this message's `$Properties`. */
                    result?: "poll";
                    /** `ok`, as documented on this message's `$Properties`. */
                    ok?: null;
                    /** `init`, as documented on this message's `$Properties`. */
                    init?: null;
                    /** `admit`, as documented on this message's `$Properties`. */
                    admit?: null;
                    /** `drainFailed`, as documented on this message's `$Properties`. */
                    drainFailed?: null;
                    /** `putItem`, as documented on this message's `$Properties`. */
                    putItem?: null;
                    /** `announce`, as documented on this message's `$Properties`. */
                    announce?: null;
                    /** `readMemory`, as documented on this message's `$Properties`. */
                    readMemory?: null;
                    /** `poll`, as documented on this message's `$Properties`. */
                    poll: ectp.conformance.v1.PollResult.$Shape;
                    /** `stats`, as documented on this message's `$Properties`. */
                    stats?: null;
                    /** `unsupported`, as documented on this message's `$Properties`. */
                    unsupported?: null;
                    /** `error`, as documented on this message's `$Properties`. */
                    error?: null;
                    /** `view`, as documented on this message's `$Properties`. */
                    view?: null;
                    /** `decodeStream`, as documented on this message's `$Properties`. */
                    decodeStream?: null }|{
                    /** `result`, as documented on this message's `$Properties`. */
                    result?: "stats";
                    /** `ok`, as documented on this message's `$Properties`. */
                    ok?: null;
                    /** `init`, as documented on this message's `$Properties`. */
                    init?: null;
                    /** `admit`, as documented on this message's `$Properties`. */
                    admit?: null;
                    /** `drainFailed`, as documented on this message's `$Properties`. */
                    drainFailed?: null;
                    /** `putItem`, as documented on this message's `$Properties`. */
                    putItem?: null;
                    /** `announce`, as documented on this message's `$Properties`. */
                    announce?: null;
                    /** `readMemory`, as documented on this message's `$Properties`. */
                    readMemory?: null;
                    /** `poll`, as documented on this message's `$Properties`. */
                    poll?: null;
                    /** `stats`, as documented on this message's `$Properties`. */
                    stats: ectp.conformance.v1.Stats.$Shape;
                    /** `unsupported`, as documented on this message's `$Properties`. */
                    unsupported?: null;
                    /** `error`, as documented on this message's `$Properties`. */
                    error?: null;
                    /** `view`, as documented on this message's `$Properties`. */
                    view?: null;
                    /** `decodeStream`, as documented on this message's `$Properties`. */
                    decodeStream?: null }|{
                    /** `result`, as documented on this message's `$Properties`. */
                    result?: "unsupported";
                    /** `ok`, as documented on this message's `$Properties`. */
                    ok?: null;
                    /** `init`, as documented on this message's `$Properties`. */
                    init?: null;
                    /** `admit`, as documented on this message's `$Properties`. */
                    admit?: null;
                    /** `drainFailed`, as documented on this message's `$Properties`. */
                    drainFailed?: null;
                    /** `putItem`, as documented on this message's `$Properties`. */
                    putItem?: null;
                    /** `announce`, as documented on this message's `$Properties`. */
                    announce?: null;
                    /** `readMemory`, as documented on this message's `$Properties`. */
                    readMemory?: null;
                    /** `poll`, as documented on this message's `$Properties`. */
                    poll?: null;
                    /** `stats`, as documented on this message's `$Properties`. */
                    stats?: null;
                    /** `unsupported`, as documented on this message's `$Properties`. */
                    unsupported: ectp.conformance.v1.Unsupported.$Shape;
                    /** `error`, as documented on this message's `$Properties`. */
                    error?: null;
                    /** `view`, as documented on this message's `$Properties`. */
                    view?: null;
                    /** `decodeStream`, as documented on this message's `$Properties`. */
                    decodeStream?: null }|{
                    /** `result`, as documented on this message's `$Properties`. */
                    result?: "error";
                    /** `ok`, as documented on this message's `$Properties`. */
                    ok?: null;
                    /** `init`, as documented on this message's `$Properties`. */
                    init?: null;
                    /** `admit`, as documented on this message's `$Properties`. */
                    admit?: null;
                    /** `drainFailed`, as documented on this message's `$Properties`. */
                    drainFailed?: null;
                    /** `putItem`, as documented on this message's `$Properties`. */
                    putItem?: null;
                    /** `announce`, as documented on this message's `$Properties`. */
                    announce?: null;
                    /** `readMemory`, as documented on this message's `$Properties`. */
                    readMemory?: null;
                    /** `poll`, as documented on this message's `$Properties`. */
                    poll?: null;
                    /** `stats`, as documented on this message's `$Properties`. */
                    stats?: null;
                    /** `unsupported`, as documented on this message's `$Properties`. */
                    unsupported?: null;
                    /** `error`, as documented on this message's `$Properties`. */
                    error: ectp.conformance.v1.Error.$Shape;
                    /** `view`, as documented on this message's `$Properties`. */
                    view?: null;
                    /** `decodeStream`, as documented on this message's `$Properties`. */
                    decodeStream?: null }|{
                    /** `result`, as documented on this message's `$Properties`. */
                    result?: "view";
                    /** `ok`, as documented on this message's `$Properties`. */
                    ok?: null;
                    /** `init`, as documented on this message's `$Properties`. */
                    init?: null;
                    /** `admit`, as documented on this message's `$Properties`. */
                    admit?: null;
                    /** `drainFailed`, as documented on this message's `$Properties`. */
                    drainFailed?: null;
                    /** `putItem`, as documented on this message's `$Properties`. */
                    putItem?: null;
                    /** `announce`, as documented on this message's `$Properties`. */
                    announce?: null;
                    /** `readMemory`, as documented on this message's `$Properties`. */
                    readMemory?: null;
                    /** `poll`, as documented on this message's `$Properties`. */
                    poll?: null;
                    /** `stats`, as documented on this message's `$Properties`. */
                    stats?: null;
                    /** `unsupported`, as documented on this message's `$Properties`. */
                    unsupported?: null;
                    /** `error`, as documented on this message's `$Properties`. */
                    error?: null;
                    /** `view`, as documented on this message's `$Properties`. */
                    view: ectp.conformance.v1.ViewResult.$Shape;
                    /** `decodeStream`, as documented on this message's `$Properties`. */
                    decodeStream?: null }|{
                    /** `result`, as documented on this message's `$Properties`. */
                    result?: "decodeStream";
                    /** `ok`, as documented on this message's `$Properties`. */
                    ok?: null;
                    /** `init`, as documented on this message's `$Properties`. */
                    init?: null;
                    /** `admit`, as documented on this message's `$Properties`. */
                    admit?: null;
                    /** `drainFailed`, as documented on this message's `$Properties`. */
                    drainFailed?: null;
                    /** `putItem`, as documented on this message's `$Properties`. */
                    putItem?: null;
                    /** `announce`, as documented on this message's `$Properties`. */
                    announce?: null;
                    /** `readMemory`, as documented on this message's `$Properties`. */
                    readMemory?: null;
                    /** `poll`, as documented on this message's `$Properties`. */
                    poll?: null;
                    /** `stats`, as documented on this message's `$Properties`. */
                    stats?: null;
                    /** `unsupported`, as documented on this message's `$Properties`. */
                    unsupported?: null;
                    /** `error`, as documented on this message's `$Properties`. */
                    error?: null;
                    /** `view`, as documented on this message's `$Properties`. */
                    view?: null;
                    /** `decodeStream`, as documented on this message's `$Properties`. */
                    decodeStream: ectp.conformance.v1.DecodeStreamResult.$Shape })
                );
            }

            /**
             * Properties of an Ok.
             * @deprecated Use ectp.conformance.v1.Ok.$Properties instead.
             */
            interface IOk extends ectp.conformance.v1.Ok.$Properties {
            }

            /** Success without data. */
            class Ok {

                /**
                 * Constructs a new Ok.
                 * @param [properties] Properties to set
                 */
                constructor(properties?: ectp.conformance.v1.Ok.$Properties);

                /** Unknown fields preserved while decoding when enabled */
                $unknowns?: Uint8Array[];

                /**
                 * Creates a new Ok instance using the specified properties.
                 * @param [properties] Properties to set
                 * @returns Ok instance
                 */
                static create(properties: ectp.conformance.v1.Ok.$Shape): ectp.conformance.v1.Ok & ectp.conformance.v1.Ok.$Shape;
                static create(properties?: ectp.conformance.v1.Ok.$Properties): ectp.conformance.v1.Ok;

                /**
                 * Encodes the specified Ok message. Does not implicitly {@link ectp.conformance.v1.Ok.verify|verify} messages.
                 * @param message Ok message or plain object to encode
                 * @param [writer] Writer to encode to
                 * @returns Writer
                 */
                static encode(message: ectp.conformance.v1.Ok.$Properties, writer?: $protobuf.Writer): $protobuf.Writer;

                /**
                 * Encodes the specified Ok message, length delimited. Does not implicitly {@link ectp.conformance.v1.Ok.verify|verify} messages.
                 * @param message Ok message or plain object to encode
                 * @param [writer] Writer to encode to
                 * @returns Writer
                 */
                static encodeDelimited(message: ectp.conformance.v1.Ok.$Properties, writer?: $protobuf.Writer): $protobuf.Writer;

                /**
                 * Decodes an Ok message from the specified reader or buffer.
                 * @param reader Reader or buffer to decode from
                 * @param [length] Message length if known beforehand
                 * @returns {ectp.conformance.v1.Ok & ectp.conformance.v1.Ok.$Shape} Ok
                 * @throws {Error} If the payload is not a reader or valid buffer
                 * @throws {$protobuf.util.ProtocolError} If required fields are missing
                 */
                static decode(reader: ($protobuf.Reader|Uint8Array), length?: number): ectp.conformance.v1.Ok & ectp.conformance.v1.Ok.$Shape;

                /**
                 * Decodes an Ok message from the specified reader or buffer, length delimited.
                 * @param reader Reader or buffer to decode from
                 * @returns {ectp.conformance.v1.Ok & ectp.conformance.v1.Ok.$Shape} Ok
                 * @throws {Error} If the payload is not a reader or valid buffer
                 * @throws {$protobuf.util.ProtocolError} If required fields are missing
                 */
                static decodeDelimited(reader: ($protobuf.Reader|Uint8Array)): ectp.conformance.v1.Ok & ectp.conformance.v1.Ok.$Shape;

                /**
                 * Verifies an Ok message.
                 * @param message Plain object to verify
                 * @returns `null` if valid, otherwise the reason why it is not
                 */
                static verify(message: { [k: string]: any }): (string|null);

                /**
                 * Creates an Ok message from a plain object. Also converts values to their respective internal types.
                 * @param object Plain object
                 * @returns Ok
                 */
                static fromObject(object: { [k: string]: any }): ectp.conformance.v1.Ok;

                /**
                 * Creates a plain object from an Ok message. Also converts values to other types if specified.
                 * @param message Ok
                 * @param [options] Conversion options
                 * @returns Plain object
                 */
                static toObject(message: ectp.conformance.v1.Ok, options?: $protobuf.IConversionOptions): { [k: string]: any };

                /**
                 * Converts this Ok to JSON.
                 * @returns JSON object
                 */
                toJSON(): { [k: string]: any };

                /**
                 * Gets the type url for Ok
                 * @param [prefix] Custom type url prefix, defaults to `"type.googleapis.com"`
                 * @returns The type url
                 */
                static getTypeUrl(prefix?: string): string;
            }

            namespace Ok {

                /** Properties of an Ok. */
                interface $Properties {

                    /** Unknown fields preserved while decoding when enabled */
                    $unknowns?: Uint8Array[];
                }

                /** Shape of an Ok. */
                type $Shape = ectp.conformance.v1.Ok.$Properties;
            }

            /**
             * Properties of an Unsupported.
             * @deprecated Use ectp.conformance.v1.Unsupported.$Properties instead.
             */
            interface IUnsupported extends ectp.conformance.v1.Unsupported.$Properties {
            }

            /** The implementation lacks an optional feature the command needs. */
            class Unsupported {

                /**
                 * Constructs a new Unsupported.
                 * @param [properties] Properties to set
                 */
                constructor(properties?: ectp.conformance.v1.Unsupported.$Properties);

                /** Unknown fields preserved while decoding when enabled */
                $unknowns?: Uint8Array[];

                /**
                 * Name of the feature, as listed in conformance/TESTEE-PROTOCOL.md (e.g.
                 * "raw-messages", "evict", "read-memory"). Empty: not named.
                 */
                feature: string;

                /**
                 * Creates a new Unsupported instance using the specified properties.
                 * @param [properties] Properties to set
                 * @returns Unsupported instance
                 */
                static create(properties: ectp.conformance.v1.Unsupported.$Shape): ectp.conformance.v1.Unsupported & ectp.conformance.v1.Unsupported.$Shape;
                static create(properties?: ectp.conformance.v1.Unsupported.$Properties): ectp.conformance.v1.Unsupported;

                /**
                 * Encodes the specified Unsupported message. Does not implicitly {@link ectp.conformance.v1.Unsupported.verify|verify} messages.
                 * @param message Unsupported message or plain object to encode
                 * @param [writer] Writer to encode to
                 * @returns Writer
                 */
                static encode(message: ectp.conformance.v1.Unsupported.$Properties, writer?: $protobuf.Writer): $protobuf.Writer;

                /**
                 * Encodes the specified Unsupported message, length delimited. Does not implicitly {@link ectp.conformance.v1.Unsupported.verify|verify} messages.
                 * @param message Unsupported message or plain object to encode
                 * @param [writer] Writer to encode to
                 * @returns Writer
                 */
                static encodeDelimited(message: ectp.conformance.v1.Unsupported.$Properties, writer?: $protobuf.Writer): $protobuf.Writer;

                /**
                 * Decodes an Unsupported message from the specified reader or buffer.
                 * @param reader Reader or buffer to decode from
                 * @param [length] Message length if known beforehand
                 * @returns {ectp.conformance.v1.Unsupported & ectp.conformance.v1.Unsupported.$Shape} Unsupported
                 * @throws {Error} If the payload is not a reader or valid buffer
                 * @throws {$protobuf.util.ProtocolError} If required fields are missing
                 */
                static decode(reader: ($protobuf.Reader|Uint8Array), length?: number): ectp.conformance.v1.Unsupported & ectp.conformance.v1.Unsupported.$Shape;

                /**
                 * Decodes an Unsupported message from the specified reader or buffer, length delimited.
                 * @param reader Reader or buffer to decode from
                 * @returns {ectp.conformance.v1.Unsupported & ectp.conformance.v1.Unsupported.$Shape} Unsupported
                 * @throws {Error} If the payload is not a reader or valid buffer
                 * @throws {$protobuf.util.ProtocolError} If required fields are missing
                 */
                static decodeDelimited(reader: ($protobuf.Reader|Uint8Array)): ectp.conformance.v1.Unsupported & ectp.conformance.v1.Unsupported.$Shape;

                /**
                 * Verifies an Unsupported message.
                 * @param message Plain object to verify
                 * @returns `null` if valid, otherwise the reason why it is not
                 */
                static verify(message: { [k: string]: any }): (string|null);

                /**
                 * Creates an Unsupported message from a plain object. Also converts values to their respective internal types.
                 * @param object Plain object
                 * @returns Unsupported
                 */
                static fromObject(object: { [k: string]: any }): ectp.conformance.v1.Unsupported;

                /**
                 * Creates a plain object from an Unsupported message. Also converts values to other types if specified.
                 * @param message Unsupported
                 * @param [options] Conversion options
                 * @returns Plain object
                 */
                static toObject(message: ectp.conformance.v1.Unsupported, options?: $protobuf.IConversionOptions): { [k: string]: any };

                /**
                 * Converts this Unsupported to JSON.
                 * @returns JSON object
                 */
                toJSON(): { [k: string]: any };

                /**
                 * Gets the type url for Unsupported
                 * @param [prefix] Custom type url prefix, defaults to `"type.googleapis.com"`
                 * @returns The type url
                 */
                static getTypeUrl(prefix?: string): string;
            }

            namespace Unsupported {

                /** Properties of an Unsupported. */
                interface $Properties {

                    /**
                     * Name of the feature, as listed in conformance/TESTEE-PROTOCOL.md (e.g.
                     * "raw-messages", "evict", "read-memory"). Empty: not named.
                     */
                    feature?: (string|null|undefined);

                    /** Unknown fields preserved while decoding when enabled */
                    $unknowns?: Uint8Array[];
                }

                /** Shape of an Unsupported. */
                type $Shape = ectp.conformance.v1.Unsupported.$Properties;
            }

            /**
             * Properties of an Error.
             * @deprecated Use ectp.conformance.v1.Error.$Properties instead.
             */
            interface IError extends ectp.conformance.v1.Error.$Properties {
            }

            /** The implementation refused the command or failed while executing it. */
            class Error {

                /**
                 * Constructs a new Error.
                 * @param [properties] Properties to set
                 */
                constructor(properties?: ectp.conformance.v1.Error.$Properties);

                /** Unknown fields preserved while decoding when enabled */
                $unknowns?: Uint8Array[];

                /** Human-readable description. Required (non-empty). */
                message: string;

                /**
                 * Machine-readable code, e.g. the EctpError code "INVALID_CONFIG" or
                 * "INVALID_ARGUMENT". Empty: not given.
                 */
                code: string;

                /**
                 * Creates a new Error instance using the specified properties.
                 * @param [properties] Properties to set
                 * @returns Error instance
                 */
                static create(properties: ectp.conformance.v1.Error.$Shape): ectp.conformance.v1.Error & ectp.conformance.v1.Error.$Shape;
                static create(properties?: ectp.conformance.v1.Error.$Properties): ectp.conformance.v1.Error;

                /**
                 * Encodes the specified Error message. Does not implicitly {@link ectp.conformance.v1.Error.verify|verify} messages.
                 * @param message Error message or plain object to encode
                 * @param [writer] Writer to encode to
                 * @returns Writer
                 */
                static encode(message: ectp.conformance.v1.Error.$Properties, writer?: $protobuf.Writer): $protobuf.Writer;

                /**
                 * Encodes the specified Error message, length delimited. Does not implicitly {@link ectp.conformance.v1.Error.verify|verify} messages.
                 * @param message Error message or plain object to encode
                 * @param [writer] Writer to encode to
                 * @returns Writer
                 */
                static encodeDelimited(message: ectp.conformance.v1.Error.$Properties, writer?: $protobuf.Writer): $protobuf.Writer;

                /**
                 * Decodes an Error message from the specified reader or buffer.
                 * @param reader Reader or buffer to decode from
                 * @param [length] Message length if known beforehand
                 * @returns {ectp.conformance.v1.Error & ectp.conformance.v1.Error.$Shape} Error
                 * @throws {Error} If the payload is not a reader or valid buffer
                 * @throws {$protobuf.util.ProtocolError} If required fields are missing
                 */
                static decode(reader: ($protobuf.Reader|Uint8Array), length?: number): ectp.conformance.v1.Error & ectp.conformance.v1.Error.$Shape;

                /**
                 * Decodes an Error message from the specified reader or buffer, length delimited.
                 * @param reader Reader or buffer to decode from
                 * @returns {ectp.conformance.v1.Error & ectp.conformance.v1.Error.$Shape} Error
                 * @throws {Error} If the payload is not a reader or valid buffer
                 * @throws {$protobuf.util.ProtocolError} If required fields are missing
                 */
                static decodeDelimited(reader: ($protobuf.Reader|Uint8Array)): ectp.conformance.v1.Error & ectp.conformance.v1.Error.$Shape;

                /**
                 * Verifies an Error message.
                 * @param message Plain object to verify
                 * @returns `null` if valid, otherwise the reason why it is not
                 */
                static verify(message: { [k: string]: any }): (string|null);

                /**
                 * Creates an Error message from a plain object. Also converts values to their respective internal types.
                 * @param object Plain object
                 * @returns Error
                 */
                static fromObject(object: { [k: string]: any }): ectp.conformance.v1.Error;

                /**
                 * Creates a plain object from an Error message. Also converts values to other types if specified.
                 * @param message Error
                 * @param [options] Conversion options
                 * @returns Plain object
                 */
                static toObject(message: ectp.conformance.v1.Error, options?: $protobuf.IConversionOptions): { [k: string]: any };

                /**
                 * Converts this Error to JSON.
                 * @returns JSON object
                 */
                toJSON(): { [k: string]: any };

                /**
                 * Gets the type url for Error
                 * @param [prefix] Custom type url prefix, defaults to `"type.googleapis.com"`
                 * @returns The type url
                 */
                static getTypeUrl(prefix?: string): string;
            }

            namespace Error {

                /** Properties of an Error. */
                interface $Properties {

                    /** Human-readable description. Required (non-empty). */
                    message?: (string|null|undefined);

                    /**
                     * Machine-readable code, e.g. the EctpError code "INVALID_CONFIG" or
                     * "INVALID_ARGUMENT". Empty: not given.
                     */
                    code?: (string|null|undefined);

                    /** Unknown fields preserved while decoding when enabled */
                    $unknowns?: Uint8Array[];
                }

                /** Shape of an Error. */
                type $Shape = ectp.conformance.v1.Error.$Properties;
            }

            /**
             * Properties of an Init.
             * @deprecated Use ectp.conformance.v1.Init.$Properties instead.
             */
            interface IInit extends ectp.conformance.v1.Init.$Properties {
            }

            /** First command of every testee process. */
            class Init {

                /**
                 * Constructs a new Init.
                 * @param [properties] Properties to set
                 */
                constructor(properties?: ectp.conformance.v1.Init.$Properties);

                /** Unknown fields preserved while decoding when enabled */
                $unknowns?: Uint8Array[];

                /**
                 * Version of this testee protocol the runner speaks. This file defines 1.
                 * A testee that does not speak it answers Error with code
                 * UNSUPPORTED_PROTOCOL.
                 */
                protocolVersion: number;

                /**
                 * Creates a new Init instance using the specified properties.
                 * @param [properties] Properties to set
                 * @returns Init instance
                 */
                static create(properties: ectp.conformance.v1.Init.$Shape): ectp.conformance.v1.Init & ectp.conformance.v1.Init.$Shape;
                static create(properties?: ectp.conformance.v1.Init.$Properties): ectp.conformance.v1.Init;

                /**
                 * Encodes the specified Init message. Does not implicitly {@link ectp.conformance.v1.Init.verify|verify} messages.
                 * @param message Init message or plain object to encode
                 * @param [writer] Writer to encode to
                 * @returns Writer
                 */
                static encode(message: ectp.conformance.v1.Init.$Properties, writer?: $protobuf.Writer): $protobuf.Writer;

                /**
                 * Encodes the specified Init message, length delimited. Does not implicitly {@link ectp.conformance.v1.Init.verify|verify} messages.
                 * @param message Init message or plain object to encode
                 * @param [writer] Writer to encode to
                 * @returns Writer
                 */
                static encodeDelimited(message: ectp.conformance.v1.Init.$Properties, writer?: $protobuf.Writer): $protobuf.Writer;

                /**
                 * Decodes an Init message from the specified reader or buffer.
                 * @param reader Reader or buffer to decode from
                 * @param [length] Message length if known beforehand
                 * @returns {ectp.conformance.v1.Init & ectp.conformance.v1.Init.$Shape} Init
                 * @throws {Error} If the payload is not a reader or valid buffer
                 * @throws {$protobuf.util.ProtocolError} If required fields are missing
                 */
                static decode(reader: ($protobuf.Reader|Uint8Array), length?: number): ectp.conformance.v1.Init & ectp.conformance.v1.Init.$Shape;

                /**
                 * Decodes an Init message from the specified reader or buffer, length delimited.
                 * @param reader Reader or buffer to decode from
                 * @returns {ectp.conformance.v1.Init & ectp.conformance.v1.Init.$Shape} Init
                 * @throws {Error} If the payload is not a reader or valid buffer
                 * @throws {$protobuf.util.ProtocolError} If required fields are missing
                 */
                static decodeDelimited(reader: ($protobuf.Reader|Uint8Array)): ectp.conformance.v1.Init & ectp.conformance.v1.Init.$Shape;

                /**
                 * Verifies an Init message.
                 * @param message Plain object to verify
                 * @returns `null` if valid, otherwise the reason why it is not
                 */
                static verify(message: { [k: string]: any }): (string|null);

                /**
                 * Creates an Init message from a plain object. Also converts values to their respective internal types.
                 * @param object Plain object
                 * @returns Init
                 */
                static fromObject(object: { [k: string]: any }): ectp.conformance.v1.Init;

                /**
                 * Creates a plain object from an Init message. Also converts values to other types if specified.
                 * @param message Init
                 * @param [options] Conversion options
                 * @returns Plain object
                 */
                static toObject(message: ectp.conformance.v1.Init, options?: $protobuf.IConversionOptions): { [k: string]: any };

                /**
                 * Converts this Init to JSON.
                 * @returns JSON object
                 */
                toJSON(): { [k: string]: any };

                /**
                 * Gets the type url for Init
                 * @param [prefix] Custom type url prefix, defaults to `"type.googleapis.com"`
                 * @returns The type url
                 */
                static getTypeUrl(prefix?: string): string;
            }

            namespace Init {

                /** Properties of an Init. */
                interface $Properties {

                    /**
                     * Version of this testee protocol the runner speaks. This file defines 1.
                     * A testee that does not speak it answers Error with code
                     * UNSUPPORTED_PROTOCOL.
                     */
                    protocolVersion?: (number|null|undefined);

                    /** Unknown fields preserved while decoding when enabled */
                    $unknowns?: Uint8Array[];
                }

                /** Shape of an Init. */
                type $Shape = ectp.conformance.v1.Init.$Properties;
            }

            /**
             * Properties of an InitResult.
             * @deprecated Use ectp.conformance.v1.InitResult.$Properties instead.
             */
            interface IInitResult extends ectp.conformance.v1.InitResult.$Properties {
            }

            /** Answer to Init. */
            class InitResult {

                /**
                 * Constructs a new InitResult.
                 * @param [properties] Properties to set
                 */
                constructor(properties?: ectp.conformance.v1.InitResult.$Properties);

                /** Unknown fields preserved while decoding when enabled */
                $unknowns?: Uint8Array[];

                /**
                 * Version of the testee protocol the testee speaks. MUST equal the
                 * requested one.
                 */
                protocolVersion: number;

                /** Name of the implementation (e.g. "ectp-ts"). Informative. */
                implementation: string;

                /** Version of the implementation. Informative. Empty: unknown. */
                implementationVersion: string;

                /**
                 * The roles and optional features the testee implements (names as in
                 * TESTEE-PROTOCOL.md: list the roles too). Informative: the runner trusts
                 * the features file and reports differences as warnings.
                 */
                features: string[];

                /**
                 * Creates a new InitResult instance using the specified properties.
                 * @param [properties] Properties to set
                 * @returns InitResult instance
                 */
                static create(properties: ectp.conformance.v1.InitResult.$Shape): ectp.conformance.v1.InitResult & ectp.conformance.v1.InitResult.$Shape;
                static create(properties?: ectp.conformance.v1.InitResult.$Properties): ectp.conformance.v1.InitResult;

                /**
                 * Encodes the specified InitResult message. Does not implicitly {@link ectp.conformance.v1.InitResult.verify|verify} messages.
                 * @param message InitResult message or plain object to encode
                 * @param [writer] Writer to encode to
                 * @returns Writer
                 */
                static encode(message: ectp.conformance.v1.InitResult.$Properties, writer?: $protobuf.Writer): $protobuf.Writer;

                /**
                 * Encodes the specified InitResult message, length delimited. Does not implicitly {@link ectp.conformance.v1.InitResult.verify|verify} messages.
                 * @param message InitResult message or plain object to encode
                 * @param [writer] Writer to encode to
                 * @returns Writer
                 */
                static encodeDelimited(message: ectp.conformance.v1.InitResult.$Properties, writer?: $protobuf.Writer): $protobuf.Writer;

                /**
                 * Decodes an InitResult message from the specified reader or buffer.
                 * @param reader Reader or buffer to decode from
                 * @param [length] Message length if known beforehand
                 * @returns {ectp.conformance.v1.InitResult & ectp.conformance.v1.InitResult.$Shape} InitResult
                 * @throws {Error} If the payload is not a reader or valid buffer
                 * @throws {$protobuf.util.ProtocolError} If required fields are missing
                 */
                static decode(reader: ($protobuf.Reader|Uint8Array), length?: number): ectp.conformance.v1.InitResult & ectp.conformance.v1.InitResult.$Shape;

                /**
                 * Decodes an InitResult message from the specified reader or buffer, length delimited.
                 * @param reader Reader or buffer to decode from
                 * @returns {ectp.conformance.v1.InitResult & ectp.conformance.v1.InitResult.$Shape} InitResult
                 * @throws {Error} If the payload is not a reader or valid buffer
                 * @throws {$protobuf.util.ProtocolError} If required fields are missing
                 */
                static decodeDelimited(reader: ($protobuf.Reader|Uint8Array)): ectp.conformance.v1.InitResult & ectp.conformance.v1.InitResult.$Shape;

                /**
                 * Verifies an InitResult message.
                 * @param message Plain object to verify
                 * @returns `null` if valid, otherwise the reason why it is not
                 */
                static verify(message: { [k: string]: any }): (string|null);

                /**
                 * Creates an InitResult message from a plain object. Also converts values to their respective internal types.
                 * @param object Plain object
                 * @returns InitResult
                 */
                static fromObject(object: { [k: string]: any }): ectp.conformance.v1.InitResult;

                /**
                 * Creates a plain object from an InitResult message. Also converts values to other types if specified.
                 * @param message InitResult
                 * @param [options] Conversion options
                 * @returns Plain object
                 */
                static toObject(message: ectp.conformance.v1.InitResult, options?: $protobuf.IConversionOptions): { [k: string]: any };

                /**
                 * Converts this InitResult to JSON.
                 * @returns JSON object
                 */
                toJSON(): { [k: string]: any };

                /**
                 * Gets the type url for InitResult
                 * @param [prefix] Custom type url prefix, defaults to `"type.googleapis.com"`
                 * @returns The type url
                 */
                static getTypeUrl(prefix?: string): string;
            }

            namespace InitResult {

                /** Properties of an InitResult. */
                interface $Properties {

                    /**
                     * Version of the testee protocol the testee speaks. MUST equal the
                     * requested one.
                     */
                    protocolVersion?: (number|null|undefined);

                    /** Name of the implementation (e.g. "ectp-ts"). Informative. */
                    implementation?: (string|null|undefined);

                    /** Version of the implementation. Informative. Empty: unknown. */
                    implementationVersion?: (string|null|undefined);

                    /**
                     * The roles and optional features the testee implements (names as in
                     * TESTEE-PROTOCOL.md: list the roles too). Informative: the runner trusts
                     * the features file and reports differences as warnings.
                     */
                    features?: (string[]|null|undefined);

                    /** Unknown fields preserved while decoding when enabled */
                    $unknowns?: Uint8Array[];
                }

                /** Shape of an InitResult. */
                type $Shape = ectp.conformance.v1.InitResult.$Properties;
            }

            /**
             * Properties of a Configure.
             * @deprecated Use ectp.conformance.v1.Configure.$Properties instead.
             */
            interface IConfigure extends ectp.conformance.v1.Configure.$Properties {
            }

            /**
             * Create a fresh implementation instance, discarding any previous one
             * entirely (as a process restart would: nothing survives, no outputs of the
             * old instance are delivered afterwards). Answered with Ok, or Error when
             * the implementation rejects the configuration [C11].
             */
            class Configure {

                /**
                 * Constructs a new Configure.
                 * @param [properties] Properties to set
                 */
                constructor(properties?: ectp.conformance.v1.Configure.$Properties);

                /** Unknown fields preserved while decoding when enabled */
                $unknowns?: Uint8Array[];

                /** Role of the new instance. Required. */
                role: ectp.conformance.v1.Role;

                /** The instance's peer id (envelopes' sender_id). Required (non-empty). */
                id: string;

                /** The instance's epoch [P8]. Required (> 0). */
                epoch: number;

                /**
                 * Fingerprint the instance serves (producer) or expects (consumer).
                 * Absent: the all-default fingerprint.
                 */
                fingerprint?: (ectp.v1.Fingerprint.$Properties|null|undefined);

                /**
                 * Transport metadata of the instance (Hello.transport_metadata). Empty:
                 * none.
                 */
                transportMetadata: Uint8Array;

                /**
                 * Seed of the instance's random source (backoff jitter [C4]). 0: the
                 * implementation's default seed.
                 */
                seed: number;

                /**
                 * Timers and limits. Every absent field takes the implementation's
                 * default, which MUST be the SPEC.md default.
                 */
                timers?: (ectp.conformance.v1.Timers.$Properties|null|undefined);

                /** Producer only: capacity of the item store in bytes. 0: 256 MiB. */
                storeCapacityBytes: number;

                /**
                 * Consumer only: capacity of the destination memory reads land in, in
                 * bytes. 0: 256 MiB. Allocation is the testee's business, but a
                 * destination MUST NOT be given to a new read while an earlier read into
                 * overlapping bytes is unsettled [I5].
                 */
                destinationCapacityBytes: number;

                /**
                 * Producer only, with the optional feature "warm-start": items its store
                 * holds ready before the producer starts (a store filled first, SPEC.md
                 * [E1]), each as PutItem takes it: its bytes in `data`, or as `fill`
                 * (size_bytes copies of that byte value, which the testee makes). The
                 * testee puts each into the new store, in order, and marks it ready,
                 * before it builds the producer on that store. An item the store refuses
                 * makes the configuration invalid. A testee without that feature ignores
                 * it.
                 */
                initialItems: ectp.conformance.v1.PutItem.$Properties[];

                /**
                 * Creates a new Configure instance using the specified properties.
                 * @param [properties] Properties to set
                 * @returns Configure instance
                 */
                static create(properties: ectp.conformance.v1.Configure.$Shape): ectp.conformance.v1.Configure & ectp.conformance.v1.Configure.$Shape;
                static create(properties?: ectp.conformance.v1.Configure.$Properties): ectp.conformance.v1.Configure;

                /**
                 * Encodes the specified Configure message. Does not implicitly {@link ectp.conformance.v1.Configure.verify|verify} messages.
                 * @param message Configure message or plain object to encode
                 * @param [writer] Writer to encode to
                 * @returns Writer
                 */
                static encode(message: ectp.conformance.v1.Configure.$Properties, writer?: $protobuf.Writer): $protobuf.Writer;

                /**
                 * Encodes the specified Configure message, length delimited. Does not implicitly {@link ectp.conformance.v1.Configure.verify|verify} messages.
                 * @param message Configure message or plain object to encode
                 * @param [writer] Writer to encode to
                 * @returns Writer
                 */
                static encodeDelimited(message: ectp.conformance.v1.Configure.$Properties, writer?: $protobuf.Writer): $protobuf.Writer;

                /**
                 * Decodes a Configure message from the specified reader or buffer.
                 * @param reader Reader or buffer to decode from
                 * @param [length] Message length if known beforehand
                 * @returns {ectp.conformance.v1.Configure & ectp.conformance.v1.Configure.$Shape} Configure
                 * @throws {Error} If the payload is not a reader or valid buffer
                 * @throws {$protobuf.util.ProtocolError} If required fields are missing
                 */
                static decode(reader: ($protobuf.Reader|Uint8Array), length?: number): ectp.conformance.v1.Configure & ectp.conformance.v1.Configure.$Shape;

                /**
                 * Decodes a Configure message from the specified reader or buffer, length delimited.
                 * @param reader Reader or buffer to decode from
                 * @returns {ectp.conformance.v1.Configure & ectp.conformance.v1.Configure.$Shape} Configure
                 * @throws {Error} If the payload is not a reader or valid buffer
                 * @throws {$protobuf.util.ProtocolError} If required fields are missing
                 */
                static decodeDelimited(reader: ($protobuf.Reader|Uint8Array)): ectp.conformance.v1.Configure & ectp.conformance.v1.Configure.$Shape;

                /**
                 * Verifies a Configure message.
                 * @param message Plain object to verify
                 * @returns `null` if valid, otherwise the reason why it is not
                 */
                static verify(message: { [k: string]: any }): (string|null);

                /**
                 * Creates a Configure message from a plain object. Also converts values to their respective internal types.
                 * @param object Plain object
                 * @returns Configure
                 */
                static fromObject(object: { [k: string]: any }): ectp.conformance.v1.Configure;

                /**
                 * Creates a plain object from a Configure message. Also converts values to other types if specified.
                 * @param message Configure
                 * @param [options] Conversion options
                 * @returns Plain object
                 */
                static toObject(message: ectp.conformance.v1.Configure, options?: $protobuf.IConversionOptions): { [k: string]: any };

                /**
                 * Converts this Configure to JSON.
                 * @returns JSON object
                 */
                toJSON(): { [k: string]: any };

                /**
                 * Gets the type url for Configure
                 * @param [prefix] Custom type url prefix, defaults to `"type.googleapis.com"`
                 * @returns The type url
                 */
                static getTypeUrl(prefix?: string): string;
            }

            namespace Configure {

                /** Properties of a Configure. */
                interface $Properties {

                    /** Role of the new instance. Required. */
                    role?: (ectp.conformance.v1.Role|null|undefined);

                    /** The instance's peer id (envelopes' sender_id). Required (non-empty). */
                    id?: (string|null|undefined);

                    /** The instance's epoch [P8]. Required (> 0). */
                    epoch?: (number|null|undefined);

                    /**
                     * Fingerprint the instance serves (producer) or expects (consumer).
                     * Absent: the all-default fingerprint.
                     */
                    fingerprint?: (ectp.v1.Fingerprint.$Properties|null|undefined);

                    /**
                     * Transport metadata of the instance (Hello.transport_metadata). Empty:
                     * none.
                     */
                    transportMetadata?: (Uint8Array|null|undefined);

                    /**
                     * Seed of the instance's random source (backoff jitter [C4]). 0: the
                     * implementation's default seed.
                     */
                    seed?: (number|null|undefined);

                    /**
                     * Timers and limits. Every absent field takes the implementation's
                     * default, which MUST be the SPEC.md default.
                     */
                    timers?: (ectp.conformance.v1.Timers.$Properties|null|undefined);

                    /** Producer only: capacity of the item store in bytes. 0: 256 MiB. */
                    storeCapacityBytes?: (number|null|undefined);

                    /**
                     * Consumer only: capacity of the destination memory reads land in, in
                     * bytes. 0: 256 MiB. Allocation is the testee's business, but a
                     * destination MUST NOT be given to a new read while an earlier read into
                     * overlapping bytes is unsettled [I5].
                     */
                    destinationCapacityBytes?: (number|null|undefined);

                    /**
                     * Producer only, with the optional feature "warm-start": items its store
                     * holds ready before the producer starts (a store filled first, SPEC.md
                     * [E1]), each as PutItem takes it: its bytes in `data`, or as `fill`
                     * (size_bytes copies of that byte value, which the testee makes). The
                     * testee puts each into the new store, in order, and marks it ready,
                     * before it builds the producer on that store. An item the store refuses
                     * makes the configuration invalid. A testee without that feature ignores
                     * it.
                     */
                    initialItems?: (ectp.conformance.v1.PutItem.$Properties[]|null|undefined);

                    /** Unknown fields preserved while decoding when enabled */
                    $unknowns?: Uint8Array[];
                }

                /** Shape of a Configure. */
                type $Shape = ectp.conformance.v1.Configure.$Properties;
            }

            /**
             * Properties of a Timers.
             * @deprecated Use ectp.conformance.v1.Timers.$Properties instead.
             */
            interface ITimers extends ectp.conformance.v1.Timers.$Properties {
            }

            /**
             * Timers and limits (spec/SPEC.md "Timers"). Every field is optional; an
             * absent field means "the SPEC.md default". Durations in milliseconds.
             */
            class Timers {

                /**
                 * Constructs a new Timers.
                 * @param [properties] Properties to set
                 */
                constructor(properties?: ectp.conformance.v1.Timers.$Properties);

                /** Unknown fields preserved while decoding when enabled */
                $unknowns?: Uint8Array[];

                /** Every role: heartbeat interval [P8]. Absent: 2000. */
                heartbeatIntervalMs?: (number|null|undefined);

                /**
                 * Consumer and producer: missed intervals before a peer is gone [P8].
                 * Absent: 3. (The reference subscribers judge a producer gone after 3.)
                 */
                heartbeatMisses?: (number|null|undefined);

                /** Consumer: wait budget per (request, item) [C3]. Absent: 60000. */
                waitBudgetMs?: (number|null|undefined);

                /** Consumer: grant wait per attempt [C4]. Absent: 30000. */
                grantWaitMs?: (number|null|undefined);

                /** Consumer: transfer timeout [C8]. Absent: 20000. */
                transferTimeoutMs?: (number|null|undefined);

                /**
                 * Consumer: quarantine cap [C8]. Absent: 60000. "No cap", which [C8] allows,
                 * cannot be asked for here: an implementation that offers it runs capped.
                 */
                quarantineCapMs?: (number|null|undefined);

                /** Consumer: first backoff delay [C4]. Absent: 50. */
                backoffInitialMs?: (number|null|undefined);

                /** Consumer: largest backoff delay [C4]. Absent: 2000. */
                backoffMaxMs?: (number|null|undefined);

                /** Consumer: lease safety margin [C11]. Absent: 5000. */
                leaseSafetyMarginMs?: (number|null|undefined);

                /** Consumer: largest acceptable item size [C2]. Absent: 268435456. */
                maxItemBytes?: (number|null|undefined);

                /**
                 * Both: grant lease (producer grants it, consumer plans for it) [P3][C11].
                 * Absent: 30000.
                 */
                leaseMs?: (number|null|undefined);

                /** Producer: per-consumer pinned-bytes quota [P5]. Absent: 1073741824. */
                maxPinnedBytesPerConsumer?: (number|null|undefined);

                /** Producer: per-consumer grant quota [P5]. Absent: 256. */
                maxGrantsPerConsumer?: (number|null|undefined);

                /** Producer: event batches kept for replay [E2]. Absent: 1024. */
                replayBufferBatches?: (number|null|undefined);

                /** Producer: retry hint in OVERLOADED / NOT_READY rejects. Absent: 50. */
                retryAfterMs?: (number|null|undefined);

                /**
                 * Producer: largest total encoded size of the events of one EventBatch or
                 * the items of one Snapshot part [E1][E2], at most 8388608. Absent: 1048576.
                 */
                maxBatchBytes?: (number|null|undefined);

                /**
                 * Producer: least time between two answers to one peer's ReplayRequests or
                 * SnapshotRequests that resend anything [E2], at most 1000; 0: no bound.
                 * Absent: 500.
                 */
                resendIntervalMs?: (number|null|undefined);

                /**
                 * Subscriber, with the optional feature "subscriber-view-bound": the bound
                 * on what it keeps of one producer's items, on each of its view and a
                 * snapshot being assembled for it, counted as SPEC.md [E2] counts them (each
                 * item's encoded ItemDescriptor and its key id). A present 0 is an invalid
                 * configuration. A testee without that feature ignores it. Absent: the
                 * implementation's own bound (the reference subscribers: 268435456).
                 */
                maxViewBytes?: (number|null|undefined);

                /**
                 * Creates a new Timers instance using the specified properties.
                 * @param [properties] Properties to set
                 * @returns Timers instance
                 */
                static create(properties: ectp.conformance.v1.Timers.$Shape): ectp.conformance.v1.Timers & ectp.conformance.v1.Timers.$Shape;
                static create(properties?: ectp.conformance.v1.Timers.$Properties): ectp.conformance.v1.Timers;

                /**
                 * Encodes the specified Timers message. Does not implicitly {@link ectp.conformance.v1.Timers.verify|verify} messages.
                 * @param message Timers message or plain object to encode
                 * @param [writer] Writer to encode to
                 * @returns Writer
                 */
                static encode(message: ectp.conformance.v1.Timers.$Properties, writer?: $protobuf.Writer): $protobuf.Writer;

                /**
                 * Encodes the specified Timers message, length delimited. Does not implicitly {@link ectp.conformance.v1.Timers.verify|verify} messages.
                 * @param message Timers message or plain object to encode
                 * @param [writer] Writer to encode to
                 * @returns Writer
                 */
                static encodeDelimited(message: ectp.conformance.v1.Timers.$Properties, writer?: $protobuf.Writer): $protobuf.Writer;

                /**
                 * Decodes a Timers message from the specified reader or buffer.
                 * @param reader Reader or buffer to decode from
                 * @param [length] Message length if known beforehand
                 * @returns {ectp.conformance.v1.Timers & ectp.conformance.v1.Timers.$Shape} Timers
                 * @throws {Error} If the payload is not a reader or valid buffer
                 * @throws {$protobuf.util.ProtocolError} If required fields are missing
                 */
                static decode(reader: ($protobuf.Reader|Uint8Array), length?: number): ectp.conformance.v1.Timers & ectp.conformance.v1.Timers.$Shape;

                /**
                 * Decodes a Timers message from the specified reader or buffer, length delimited.
                 * @param reader Reader or buffer to decode from
                 * @returns {ectp.conformance.v1.Timers & ectp.conformance.v1.Timers.$Shape} Timers
                 * @throws {Error} If the payload is not a reader or valid buffer
                 * @throws {$protobuf.util.ProtocolError} If required fields are missing
                 */
                static decodeDelimited(reader: ($protobuf.Reader|Uint8Array)): ectp.conformance.v1.Timers & ectp.conformance.v1.Timers.$Shape;

                /**
                 * Verifies a Timers message.
                 * @param message Plain object to verify
                 * @returns `null` if valid, otherwise the reason why it is not
                 */
                static verify(message: { [k: string]: any }): (string|null);

                /**
                 * Creates a Timers message from a plain object. Also converts values to their respective internal types.
                 * @param object Plain object
                 * @returns Timers
                 */
                static fromObject(object: { [k: string]: any }): ectp.conformance.v1.Timers;

                /**
                 * Creates a plain object from a Timers message. Also converts values to other types if specified.
                 * @param message Timers
                 * @param [options] Conversion options
                 * @returns Plain object
                 */
                static toObject(message: ectp.conformance.v1.Timers, options?: $protobuf.IConversionOptions): { [k: string]: any };

                /**
                 * Converts this Timers to JSON.
                 * @returns JSON object
                 */
                toJSON(): { [k: string]: any };

                /**
                 * Gets the type url for Timers
                 * @param [prefix] Custom type url prefix, defaults to `"type.googleapis.com"`
                 * @returns The type url
                 */
                static getTypeUrl(prefix?: string): string;
            }

            namespace Timers {

                /** Properties of a Timers. */
                interface $Properties {

                    /** Every role: heartbeat interval [P8]. Absent: 2000. */
                    heartbeatIntervalMs?: (number|null|undefined);

                    /**
                     * Consumer and producer: missed intervals before a peer is gone [P8].
                     * Absent: 3. (The reference subscribers judge a producer gone after 3.)
                     */
                    heartbeatMisses?: (number|null|undefined);

                    /** Consumer: wait budget per (request, item) [C3]. Absent: 60000. */
                    waitBudgetMs?: (number|null|undefined);

                    /** Consumer: grant wait per attempt [C4]. Absent: 30000. */
                    grantWaitMs?: (number|null|undefined);

                    /** Consumer: transfer timeout [C8]. Absent: 20000. */
                    transferTimeoutMs?: (number|null|undefined);

                    /**
                     * Consumer: quarantine cap [C8]. Absent: 60000. "No cap", which [C8] allows,
                     * cannot be asked for here: an implementation that offers it runs capped.
                     */
                    quarantineCapMs?: (number|null|undefined);

                    /** Consumer: first backoff delay [C4]. Absent: 50. */
                    backoffInitialMs?: (number|null|undefined);

                    /** Consumer: largest backoff delay [C4]. Absent: 2000. */
                    backoffMaxMs?: (number|null|undefined);

                    /** Consumer: lease safety margin [C11]. Absent: 5000. */
                    leaseSafetyMarginMs?: (number|null|undefined);

                    /** Consumer: largest acceptable item size [C2]. Absent: 268435456. */
                    maxItemBytes?: (number|null|undefined);

                    /**
                     * Both: grant lease (producer grants it, consumer plans for it) [P3][C11].
                     * Absent: 30000.
                     */
                    leaseMs?: (number|null|undefined);

                    /** Producer: per-consumer pinned-bytes quota [P5]. Absent: 1073741824. */
                    maxPinnedBytesPerConsumer?: (number|null|undefined);

                    /** Producer: per-consumer grant quota [P5]. Absent: 256. */
                    maxGrantsPerConsumer?: (number|null|undefined);

                    /** Producer: event batches kept for replay [E2]. Absent: 1024. */
                    replayBufferBatches?: (number|null|undefined);

                    /** Producer: retry hint in OVERLOADED / NOT_READY rejects. Absent: 50. */
                    retryAfterMs?: (number|null|undefined);

                    /**
                     * Producer: largest total encoded size of the events of one EventBatch or
                     * the items of one Snapshot part [E1][E2], at most 8388608. Absent: 1048576.
                     */
                    maxBatchBytes?: (number|null|undefined);

                    /**
                     * Producer: least time between two answers to one peer's ReplayRequests or
                     * SnapshotRequests that resend anything [E2], at most 1000; 0: no bound.
                     * Absent: 500.
                     */
                    resendIntervalMs?: (number|null|undefined);

                    /**
                     * Subscriber, with the optional feature "subscriber-view-bound": the bound
                     * on what it keeps of one producer's items, on each of its view and a
                     * snapshot being assembled for it, counted as SPEC.md [E2] counts them (each
                     * item's encoded ItemDescriptor and its key id). A present 0 is an invalid
                     * configuration. A testee without that feature ignores it. Absent: the
                     * implementation's own bound (the reference subscribers: 268435456).
                     */
                    maxViewBytes?: (number|null|undefined);

                    /** Unknown fields preserved while decoding when enabled */
                    $unknowns?: Uint8Array[];
                }

                /** Shape of a Timers. */
                type $Shape = ectp.conformance.v1.Timers.$Properties;
            }

            /**
             * Properties of an Admit.
             * @deprecated Use ectp.conformance.v1.Admit.$Properties instead.
             */
            interface IAdmit extends ectp.conformance.v1.Admit.$Properties {
            }

            /** The engine admits (or re-admits, on a later step) a request [C1]. */
            class Admit {

                /**
                 * Constructs a new Admit.
                 * @param [properties] Properties to set
                 */
                constructor(properties?: ectp.conformance.v1.Admit.$Properties);

                /** Unknown fields preserved while decoding when enabled */
                $unknowns?: Uint8Array[];

                /** The engine's request id. Required. */
                requestId: string;

                /** The request's media items, in order. */
                items: ectp.conformance.v1.AdmitItem.$Properties[];

                /**
                 * Creates a new Admit instance using the specified properties.
                 * @param [properties] Properties to set
                 * @returns Admit instance
                 */
                static create(properties: ectp.conformance.v1.Admit.$Shape): ectp.conformance.v1.Admit & ectp.conformance.v1.Admit.$Shape;
                static create(properties?: ectp.conformance.v1.Admit.$Properties): ectp.conformance.v1.Admit;

                /**
                 * Encodes the specified Admit message. Does not implicitly {@link ectp.conformance.v1.Admit.verify|verify} messages.
                 * @param message Admit message or plain object to encode
                 * @param [writer] Writer to encode to
                 * @returns Writer
                 */
                static encode(message: ectp.conformance.v1.Admit.$Properties, writer?: $protobuf.Writer): $protobuf.Writer;

                /**
                 * Encodes the specified Admit message, length delimited. Does not implicitly {@link ectp.conformance.v1.Admit.verify|verify} messages.
                 * @param message Admit message or plain object to encode
                 * @param [writer] Writer to encode to
                 * @returns Writer
                 */
                static encodeDelimited(message: ectp.conformance.v1.Admit.$Properties, writer?: $protobuf.Writer): $protobuf.Writer;

                /**
                 * Decodes an Admit message from the specified reader or buffer.
                 * @param reader Reader or buffer to decode from
                 * @param [length] Message length if known beforehand
                 * @returns {ectp.conformance.v1.Admit & ectp.conformance.v1.Admit.$Shape} Admit
                 * @throws {Error} If the payload is not a reader or valid buffer
                 * @throws {$protobuf.util.ProtocolError} If required fields are missing
                 */
                static decode(reader: ($protobuf.Reader|Uint8Array), length?: number): ectp.conformance.v1.Admit & ectp.conformance.v1.Admit.$Shape;

                /**
                 * Decodes an Admit message from the specified reader or buffer, length delimited.
                 * @param reader Reader or buffer to decode from
                 * @returns {ectp.conformance.v1.Admit & ectp.conformance.v1.Admit.$Shape} Admit
                 * @throws {Error} If the payload is not a reader or valid buffer
                 * @throws {$protobuf.util.ProtocolError} If required fields are missing
                 */
                static decodeDelimited(reader: ($protobuf.Reader|Uint8Array)): ectp.conformance.v1.Admit & ectp.conformance.v1.Admit.$Shape;

                /**
                 * Verifies an Admit message.
                 * @param message Plain object to verify
                 * @returns `null` if valid, otherwise the reason why it is not
                 */
                static verify(message: { [k: string]: any }): (string|null);

                /**
                 * Creates an Admit message from a plain object. Also converts values to their respective internal types.
                 * @param object Plain object
                 * @returns Admit
                 */
                static fromObject(object: { [k: string]: any }): ectp.conformance.v1.Admit;

                /**
                 * Creates a plain object from an Admit message. Also converts values to other types if specified.
                 * @param message Admit
                 * @param [options] Conversion options
                 * @returns Plain object
                 */
                static toObject(message: ectp.conformance.v1.Admit, options?: $protobuf.IConversionOptions): { [k: string]: any };

                /**
                 * Converts this Admit to JSON.
                 * @returns JSON object
                 */
                toJSON(): { [k: string]: any };

                /**
                 * Gets the type url for Admit
                 * @param [prefix] Custom type url prefix, defaults to `"type.googleapis.com"`
                 * @returns The type url
                 */
                static getTypeUrl(prefix?: string): string;
            }

            namespace Admit {

                /** Properties of an Admit. */
                interface $Properties {

                    /** The engine's request id. Required. */
                    requestId?: (string|null|undefined);

                    /** The request's media items, in order. */
                    items?: (ectp.conformance.v1.AdmitItem.$Properties[]|null|undefined);

                    /** Unknown fields preserved while decoding when enabled */
                    $unknowns?: Uint8Array[];
                }

                /** Shape of an Admit. */
                type $Shape = ectp.conformance.v1.Admit.$Properties;
            }

            /**
             * Properties of an AdmitItem.
             * @deprecated Use ectp.conformance.v1.AdmitItem.$Properties instead.
             */
            interface IAdmitItem extends ectp.conformance.v1.AdmitItem.$Properties {
            }

            /** One media item of an admitted request. */
            class AdmitItem {

                /**
                 * Constructs a new AdmitItem.
                 * @param [properties] Properties to set
                 */
                constructor(properties?: ectp.conformance.v1.AdmitItem.$Properties);

                /** Unknown fields preserved while decoding when enabled */
                $unknowns?: Uint8Array[];

                /** The engine's id for the item, unique within the request. Required. */
                itemId: string;

                /**
                 * The announcement the orchestrator attached. Absent: no remote copy.
                 * The testee passes it to the implementation as received; anything
                 * malformed must become INVALID_ANNOUNCEMENT [C2], never an exception.
                 */
                announcement?: (ectp.v1.Announcement.$Properties|null|undefined);

                /** Whether the request carries real model input for the item [C1]. */
                hasModelInput: boolean;

                /** Whether the engine already holds the encoding locally [C1]. */
                local: boolean;

                /**
                 * Optional feature "untrusted-json": the announcement as the JSON text an
                 * orchestrator sent (proto3 JSON field names, possibly malformed: a null,
                 * missing or non-numeric size). When set, `announcement` is absent and the
                 * testee hands the parsed JSON to the implementation's announcement intake.
                 * Empty: not used.
                 */
                announcementJson: string;

                /**
                 * Creates a new AdmitItem instance using the specified properties.
                 * @param [properties] Properties to set
                 * @returns AdmitItem instance
                 */
                static create(properties: ectp.conformance.v1.AdmitItem.$Shape): ectp.conformance.v1.AdmitItem & ectp.conformance.v1.AdmitItem.$Shape;
                static create(properties?: ectp.conformance.v1.AdmitItem.$Properties): ectp.conformance.v1.AdmitItem;

                /**
                 * Encodes the specified AdmitItem message. Does not implicitly {@link ectp.conformance.v1.AdmitItem.verify|verify} messages.
                 * @param message AdmitItem message or plain object to encode
                 * @param [writer] Writer to encode to
                 * @returns Writer
                 */
                static encode(message: ectp.conformance.v1.AdmitItem.$Properties, writer?: $protobuf.Writer): $protobuf.Writer;

                /**
                 * Encodes the specified AdmitItem message, length delimited. Does not implicitly {@link ectp.conformance.v1.AdmitItem.verify|verify} messages.
                 * @param message AdmitItem message or plain object to encode
                 * @param [writer] Writer to encode to
                 * @returns Writer
                 */
                static encodeDelimited(message: ectp.conformance.v1.AdmitItem.$Properties, writer?: $protobuf.Writer): $protobuf.Writer;

                /**
                 * Decodes an AdmitItem message from the specified reader or buffer.
                 * @param reader Reader or buffer to decode from
                 * @param [length] Message length if known beforehand
                 * @returns {ectp.conformance.v1.AdmitItem & ectp.conformance.v1.AdmitItem.$Shape} AdmitItem
                 * @throws {Error} If the payload is not a reader or valid buffer
                 * @throws {$protobuf.util.ProtocolError} If required fields are missing
                 */
                static decode(reader: ($protobuf.Reader|Uint8Array), length?: number): ectp.conformance.v1.AdmitItem & ectp.conformance.v1.AdmitItem.$Shape;

                /**
                 * Decodes an AdmitItem message from the specified reader or buffer, length delimited.
                 * @param reader Reader or buffer to decode from
                 * @returns {ectp.conformance.v1.AdmitItem & ectp.conformance.v1.AdmitItem.$Shape} AdmitItem
                 * @throws {Error} If the payload is not a reader or valid buffer
                 * @throws {$protobuf.util.ProtocolError} If required fields are missing
                 */
                static decodeDelimited(reader: ($protobuf.Reader|Uint8Array)): ectp.conformance.v1.AdmitItem & ectp.conformance.v1.AdmitItem.$Shape;

                /**
                 * Verifies an AdmitItem message.
                 * @param message Plain object to verify
                 * @returns `null` if valid, otherwise the reason why it is not
                 */
                static verify(message: { [k: string]: any }): (string|null);

                /**
                 * Creates an AdmitItem message from a plain object. Also converts values to their respective internal types.
                 * @param object Plain object
                 * @returns AdmitItem
                 */
                static fromObject(object: { [k: string]: any }): ectp.conformance.v1.AdmitItem;

                /**
                 * Creates a plain object from an AdmitItem message. Also converts values to other types if specified.
                 * @param message AdmitItem
                 * @param [options] Conversion options
                 * @returns Plain object
                 */
                static toObject(message: ectp.conformance.v1.AdmitItem, options?: $protobuf.IConversionOptions): { [k: string]: any };

                /**
                 * Converts this AdmitItem to JSON.
                 * @returns JSON object
                 */
                toJSON(): { [k: string]: any };

                /**
                 * Gets the type url for AdmitItem
                 * @param [prefix] Custom type url prefix, defaults to `"type.googleapis.com"`
                 * @returns The type url
                 */
                static getTypeUrl(prefix?: string): string;
            }

            namespace AdmitItem {

                /** Properties of an AdmitItem. */
                interface $Properties {

                    /** The engine's id for the item, unique within the request. Required. */
                    itemId?: (string|null|undefined);

                    /**
                     * The announcement the orchestrator attached. Absent: no remote copy.
                     * The testee passes it to the implementation as received; anything
                     * malformed must become INVALID_ANNOUNCEMENT [C2], never an exception.
                     */
                    announcement?: (ectp.v1.Announcement.$Properties|null|undefined);

                    /** Whether the request carries real model input for the item [C1]. */
                    hasModelInput?: (boolean|null|undefined);

                    /** Whether the engine already holds the encoding locally [C1]. */
                    local?: (boolean|null|undefined);

                    /**
                     * Optional feature "untrusted-json": the announcement as the JSON text an
                     * orchestrator sent (proto3 JSON field names, possibly malformed: a null,
                     * missing or non-numeric size). When set, `announcement` is absent and the
                     * testee hands the parsed JSON to the implementation's announcement intake.
                     * Empty: not used.
                     */
                    announcementJson?: (string|null|undefined);

                    /** Unknown fields preserved while decoding when enabled */
                    $unknowns?: Uint8Array[];
                }

                /** Shape of an AdmitItem. */
                type $Shape = ectp.conformance.v1.AdmitItem.$Properties;
            }

            /**
             * Properties of an AdmitResult.
             * @deprecated Use ectp.conformance.v1.AdmitResult.$Properties instead.
             */
            interface IAdmitResult extends ectp.conformance.v1.AdmitResult.$Properties {
            }

            /** Answer to Admit. */
            class AdmitResult {

                /**
                 * Constructs a new AdmitResult.
                 * @param [properties] Properties to set
                 */
                constructor(properties?: ectp.conformance.v1.AdmitResult.$Properties);

                /** Unknown fields preserved while decoding when enabled */
                $unknowns?: Uint8Array[];

                /** Whether the request was admitted or failed. */
                status: ectp.conformance.v1.AdmitStatus;

                /** ADMITTED: one decision per item, in the request's order. FAILED: empty. */
                items: ectp.conformance.v1.ItemDecision.$Properties[];

                /** FAILED: the failed items (at least one). ADMITTED: empty. */
                failures: ectp.conformance.v1.ItemFailure.$Properties[];

                /**
                 * Creates a new AdmitResult instance using the specified properties.
                 * @param [properties] Properties to set
                 * @returns AdmitResult instance
                 */
                static create(properties: ectp.conformance.v1.AdmitResult.$Shape): ectp.conformance.v1.AdmitResult & ectp.conformance.v1.AdmitResult.$Shape;
                static create(properties?: ectp.conformance.v1.AdmitResult.$Properties): ectp.conformance.v1.AdmitResult;

                /**
                 * Encodes the specified AdmitResult message. Does not implicitly {@link ectp.conformance.v1.AdmitResult.verify|verify} messages.
                 * @param message AdmitResult message or plain object to encode
                 * @param [writer] Writer to encode to
                 * @returns Writer
                 */
                static encode(message: ectp.conformance.v1.AdmitResult.$Properties, writer?: $protobuf.Writer): $protobuf.Writer;

                /**
                 * Encodes the specified AdmitResult message, length delimited. Does not implicitly {@link ectp.conformance.v1.AdmitResult.verify|verify} messages.
                 * @param message AdmitResult message or plain object to encode
                 * @param [writer] Writer to encode to
                 * @returns Writer
                 */
                static encodeDelimited(message: ectp.conformance.v1.AdmitResult.$Properties, writer?: $protobuf.Writer): $protobuf.Writer;

                /**
                 * Decodes an AdmitResult message from the specified reader or buffer.
                 * @param reader Reader or buffer to decode from
                 * @param [length] Message length if known beforehand
                 * @returns {ectp.conformance.v1.AdmitResult & ectp.conformance.v1.AdmitResult.$Shape} AdmitResult
                 * @throws {Error} If the payload is not a reader or valid buffer
                 * @throws {$protobuf.util.ProtocolError} If required fields are missing
                 */
                static decode(reader: ($protobuf.Reader|Uint8Array), length?: number): ectp.conformance.v1.AdmitResult & ectp.conformance.v1.AdmitResult.$Shape;

                /**
                 * Decodes an AdmitResult message from the specified reader or buffer, length delimited.
                 * @param reader Reader or buffer to decode from
                 * @returns {ectp.conformance.v1.AdmitResult & ectp.conformance.v1.AdmitResult.$Shape} AdmitResult
                 * @throws {Error} If the payload is not a reader or valid buffer
                 * @throws {$protobuf.util.ProtocolError} If required fields are missing
                 */
                static decodeDelimited(reader: ($protobuf.Reader|Uint8Array)): ectp.conformance.v1.AdmitResult & ectp.conformance.v1.AdmitResult.$Shape;

                /**
                 * Verifies an AdmitResult message.
                 * @param message Plain object to verify
                 * @returns `null` if valid, otherwise the reason why it is not
                 */
                static verify(message: { [k: string]: any }): (string|null);

                /**
                 * Creates an AdmitResult message from a plain object. Also converts values to their respective internal types.
                 * @param object Plain object
                 * @returns AdmitResult
                 */
                static fromObject(object: { [k: string]: any }): ectp.conformance.v1.AdmitResult;

                /**
                 * Creates a plain object from an AdmitResult message. Also converts values to other types if specified.
                 * @param message AdmitResult
                 * @param [options] Conversion options
                 * @returns Plain object
                 */
                static toObject(message: ectp.conformance.v1.AdmitResult, options?: $protobuf.IConversionOptions): { [k: string]: any };

                /**
                 * Converts this AdmitResult to JSON.
                 * @returns JSON object
                 */
                toJSON(): { [k: string]: any };

                /**
                 * Gets the type url for AdmitResult
                 * @param [prefix] Custom type url prefix, defaults to `"type.googleapis.com"`
                 * @returns The type url
                 */
                static getTypeUrl(prefix?: string): string;
            }

            namespace AdmitResult {

                /** Properties of an AdmitResult. */
                interface $Properties {

                    /** Whether the request was admitted or failed. */
                    status?: (ectp.conformance.v1.AdmitStatus|null|undefined);

                    /** ADMITTED: one decision per item, in the request's order. FAILED: empty. */
                    items?: (ectp.conformance.v1.ItemDecision.$Properties[]|null|undefined);

                    /** FAILED: the failed items (at least one). ADMITTED: empty. */
                    failures?: (ectp.conformance.v1.ItemFailure.$Properties[]|null|undefined);

                    /** Unknown fields preserved while decoding when enabled */
                    $unknowns?: Uint8Array[];
                }

                /** Shape of an AdmitResult. */
                type $Shape = ectp.conformance.v1.AdmitResult.$Properties;
            }

            /** Overall answer of an admission. */
            enum AdmitStatus {

                /** Not given; a malformed response. */
                ADMIT_STATUS_UNSPECIFIED = 0,

                /** Every item has a decision. */
                ADMIT_STATUS_ADMITTED = 1,

                /** The request failed (and is reported once by DrainFailed) [C6]. */
                ADMIT_STATUS_FAILED = 2
            }

            /** What to do with one item [C1]. */
            enum ItemAction {

                /** Not given; a malformed response. */
                ITEM_ACTION_UNSPECIFIED = 0,

                /** Available: local already, or loaded and verified. */
                ITEM_ACTION_READY = 1,

                /** Not yet: admit again later. */
                ITEM_ACTION_DEFER = 2,

                /** Encode locally from the request's model input. */
                ITEM_ACTION_LOCAL_ENCODE = 3
            }

            /**
             * Properties of an ItemDecision.
             * @deprecated Use ectp.conformance.v1.ItemDecision.$Properties instead.
             */
            interface IItemDecision extends ectp.conformance.v1.ItemDecision.$Properties {
            }

            /** Decision for one item. */
            class ItemDecision {

                /**
                 * Constructs a new ItemDecision.
                 * @param [properties] Properties to set
                 */
                constructor(properties?: ectp.conformance.v1.ItemDecision.$Properties);

                /** Unknown fields preserved while decoding when enabled */
                $unknowns?: Uint8Array[];

                /** The AdmitItem.item_id this decision is about. */
                itemId: string;

                /**
                 * What the engine does with the item: READY, DEFER or LOCAL_ENCODE
                 * (ItemAction); UNSPECIFIED is a malformed response.
                 */
                action: ectp.conformance.v1.ItemAction;

                /**
                 * LOCAL_ENCODE: why the remote path was not or no longer used.
                 * UNSPECIFIED: there was no announcement (or READY/DEFER).
                 */
                reason: ectp.v1.FailureReason;

                /**
                 * READY from a remote load: the loaded bytes, as the testee reads them
                 * back from its destination memory, so the runner checks [I6]. The testee
                 * MUST fill `loaded` for every READY decision of an item it loaded
                 * remotely. Absent: the item was local, or not READY.
                 */
                loaded?: (ectp.conformance.v1.LoadedBytes.$Properties|null|undefined);

                /**
                 * Creates a new ItemDecision instance using the specified properties.
                 * @param [properties] Properties to set
                 * @returns ItemDecision instance
                 */
                static create(properties: ectp.conformance.v1.ItemDecision.$Shape): ectp.conformance.v1.ItemDecision & ectp.conformance.v1.ItemDecision.$Shape;
                static create(properties?: ectp.conformance.v1.ItemDecision.$Properties): ectp.conformance.v1.ItemDecision;

                /**
                 * Encodes the specified ItemDecision message. Does not implicitly {@link ectp.conformance.v1.ItemDecision.verify|verify} messages.
                 * @param message ItemDecision message or plain object to encode
                 * @param [writer] Writer to encode to
                 * @returns Writer
                 */
                static encode(message: ectp.conformance.v1.ItemDecision.$Properties, writer?: $protobuf.Writer): $protobuf.Writer;

                /**
                 * Encodes the specified ItemDecision message, length delimited. Does not implicitly {@link ectp.conformance.v1.ItemDecision.verify|verify} messages.
                 * @param message ItemDecision message or plain object to encode
                 * @param [writer] Writer to encode to
                 * @returns Writer
                 */
                static encodeDelimited(message: ectp.conformance.v1.ItemDecision.$Properties, writer?: $protobuf.Writer): $protobuf.Writer;

                /**
                 * Decodes an ItemDecision message from the specified reader or buffer.
                 * @param reader Reader or buffer to decode from
                 * @param [length] Message length if known beforehand
                 * @returns {ectp.conformance.v1.ItemDecision & ectp.conformance.v1.ItemDecision.$Shape} ItemDecision
                 * @throws {Error} If the payload is not a reader or valid buffer
                 * @throws {$protobuf.util.ProtocolError} If required fields are missing
                 */
                static decode(reader: ($protobuf.Reader|Uint8Array), length?: number): ectp.conformance.v1.ItemDecision & ectp.conformance.v1.ItemDecision.$Shape;

                /**
                 * Decodes an ItemDecision message from the specified reader or buffer, length delimited.
                 * @param reader Reader or buffer to decode from
                 * @returns {ectp.conformance.v1.ItemDecision & ectp.conformance.v1.ItemDecision.$Shape} ItemDecision
                 * @throws {Error} If the payload is not a reader or valid buffer
                 * @throws {$protobuf.util.ProtocolError} If required fields are missing
                 */
                static decodeDelimited(reader: ($protobuf.Reader|Uint8Array)): ectp.conformance.v1.ItemDecision & ectp.conformance.v1.ItemDecision.$Shape;

                /**
                 * Verifies an ItemDecision message.
                 * @param message Plain object to verify
                 * @returns `null` if valid, otherwise the reason why it is not
                 */
                static verify(message: { [k: string]: any }): (string|null);

                /**
                 * Creates an ItemDecision message from a plain object. Also converts values to their respective internal types.
                 * @param object Plain object
                 * @returns ItemDecision
                 */
                static fromObject(object: { [k: string]: any }): ectp.conformance.v1.ItemDecision;

                /**
                 * Creates a plain object from an ItemDecision message. Also converts values to other types if specified.
                 * @param message ItemDecision
                 * @param [options] Conversion options
                 * @returns Plain object
                 */
                static toObject(message: ectp.conformance.v1.ItemDecision, options?: $protobuf.IConversionOptions): { [k: string]: any };

                /**
                 * Converts this ItemDecision to JSON.
                 * @returns JSON object
                 */
                toJSON(): { [k: string]: any };

                /**
                 * Gets the type url for ItemDecision
                 * @param [prefix] Custom type url prefix, defaults to `"type.googleapis.com"`
                 * @returns The type url
                 */
                static getTypeUrl(prefix?: string): string;
            }

            namespace ItemDecision {

                /** Properties of an ItemDecision. */
                interface $Properties {

                    /** The AdmitItem.item_id this decision is about. */
                    itemId?: (string|null|undefined);

                    /**
                     * What the engine does with the item: READY, DEFER or LOCAL_ENCODE
                     * (ItemAction); UNSPECIFIED is a malformed response.
                     */
                    action?: (ectp.conformance.v1.ItemAction|null|undefined);

                    /**
                     * LOCAL_ENCODE: why the remote path was not or no longer used.
                     * UNSPECIFIED: there was no announcement (or READY/DEFER).
                     */
                    reason?: (ectp.v1.FailureReason|null|undefined);

                    /**
                     * READY from a remote load: the loaded bytes, as the testee reads them
                     * back from its destination memory, so the runner checks [I6]. The testee
                     * MUST fill `loaded` for every READY decision of an item it loaded
                     * remotely. Absent: the item was local, or not READY.
                     */
                    loaded?: (ectp.conformance.v1.LoadedBytes.$Properties|null|undefined);

                    /** Unknown fields preserved while decoding when enabled */
                    $unknowns?: Uint8Array[];
                }

                /** Shape of an ItemDecision. */
                type $Shape = ectp.conformance.v1.ItemDecision.$Properties;
            }

            /**
             * Properties of a LoadedBytes.
             * @deprecated Use ectp.conformance.v1.LoadedBytes.$Properties instead.
             */
            interface ILoadedBytes extends ectp.conformance.v1.LoadedBytes.$Properties {
            }

            /** The bytes an item was loaded with. */
            class LoadedBytes {

                /**
                 * Constructs a new LoadedBytes.
                 * @param [properties] Properties to set
                 */
                constructor(properties?: ectp.conformance.v1.LoadedBytes.$Properties);

                /** Unknown fields preserved while decoding when enabled */
                $unknowns?: Uint8Array[];

                /** Number of bytes. */
                sizeBytes: number;

                /**
                 * CRC-32C of the bytes, as an unsigned 32-bit integer (the algorithm of
                 * CHECKSUM_ALGORITHM_CRC32C).
                 */
                crc32c: number;

                /**
                 * Creates a new LoadedBytes instance using the specified properties.
                 * @param [properties] Properties to set
                 * @returns LoadedBytes instance
                 */
                static create(properties: ectp.conformance.v1.LoadedBytes.$Shape): ectp.conformance.v1.LoadedBytes & ectp.conformance.v1.LoadedBytes.$Shape;
                static create(properties?: ectp.conformance.v1.LoadedBytes.$Properties): ectp.conformance.v1.LoadedBytes;

                /**
                 * Encodes the specified LoadedBytes message. Does not implicitly {@link ectp.conformance.v1.LoadedBytes.verify|verify} messages.
                 * @param message LoadedBytes message or plain object to encode
                 * @param [writer] Writer to encode to
                 * @returns Writer
                 */
                static encode(message: ectp.conformance.v1.LoadedBytes.$Properties, writer?: $protobuf.Writer): $protobuf.Writer;

                /**
                 * Encodes the specified LoadedBytes message, length delimited. Does not implicitly {@link ectp.conformance.v1.LoadedBytes.verify|verify} messages.
                 * @param message LoadedBytes message or plain object to encode
                 * @param [writer] Writer to encode to
                 * @returns Writer
                 */
                static encodeDelimited(message: ectp.conformance.v1.LoadedBytes.$Properties, writer?: $protobuf.Writer): $protobuf.Writer;

                /**
                 * Decodes a LoadedBytes message from the specified reader or buffer.
                 * @param reader Reader or buffer to decode from
                 * @param [length] Message length if known beforehand
                 * @returns {ectp.conformance.v1.LoadedBytes & ectp.conformance.v1.LoadedBytes.$Shape} LoadedBytes
                 * @throws {Error} If the payload is not a reader or valid buffer
                 * @throws {$protobuf.util.ProtocolError} If required fields are missing
                 */
                static decode(reader: ($protobuf.Reader|Uint8Array), length?: number): ectp.conformance.v1.LoadedBytes & ectp.conformance.v1.LoadedBytes.$Shape;

                /**
                 * Decodes a LoadedBytes message from the specified reader or buffer, length delimited.
                 * @param reader Reader or buffer to decode from
                 * @returns {ectp.conformance.v1.LoadedBytes & ectp.conformance.v1.LoadedBytes.$Shape} LoadedBytes
                 * @throws {Error} If the payload is not a reader or valid buffer
                 * @throws {$protobuf.util.ProtocolError} If required fields are missing
                 */
                static decodeDelimited(reader: ($protobuf.Reader|Uint8Array)): ectp.conformance.v1.LoadedBytes & ectp.conformance.v1.LoadedBytes.$Shape;

                /**
                 * Verifies a LoadedBytes message.
                 * @param message Plain object to verify
                 * @returns `null` if valid, otherwise the reason why it is not
                 */
                static verify(message: { [k: string]: any }): (string|null);

                /**
                 * Creates a LoadedBytes message from a plain object. Also converts values to their respective internal types.
                 * @param object Plain object
                 * @returns LoadedBytes
                 */
                static fromObject(object: { [k: string]: any }): ectp.conformance.v1.LoadedBytes;

                /**
                 * Creates a plain object from a LoadedBytes message. Also converts values to other types if specified.
                 * @param message LoadedBytes
                 * @param [options] Conversion options
                 * @returns Plain object
                 */
                static toObject(message: ectp.conformance.v1.LoadedBytes, options?: $protobuf.IConversionOptions): { [k: string]: any };

                /**
                 * Converts this LoadedBytes to JSON.
                 * @returns JSON object
                 */
                toJSON(): { [k: string]: any };

                /**
                 * Gets the type url for LoadedBytes
                 * @param [prefix] Custom type url prefix, defaults to `"type.googleapis.com"`
                 * @returns The type url
                 */
                static getTypeUrl(prefix?: string): string;
            }

            namespace LoadedBytes {

                /** Properties of a LoadedBytes. */
                interface $Properties {

                    /** Number of bytes. */
                    sizeBytes?: (number|null|undefined);

                    /**
                     * CRC-32C of the bytes, as an unsigned 32-bit integer (the algorithm of
                     * CHECKSUM_ALGORITHM_CRC32C).
                     */
                    crc32c?: (number|null|undefined);

                    /** Unknown fields preserved while decoding when enabled */
                    $unknowns?: Uint8Array[];
                }

                /** Shape of a LoadedBytes. */
                type $Shape = ectp.conformance.v1.LoadedBytes.$Properties;
            }

            /**
             * Properties of an ItemFailure.
             * @deprecated Use ectp.conformance.v1.ItemFailure.$Properties instead.
             */
            interface IItemFailure extends ectp.conformance.v1.ItemFailure.$Properties {
            }

            /** One failed item of a failed request. */
            class ItemFailure {

                /**
                 * Constructs a new ItemFailure.
                 * @param [properties] Properties to set
                 */
                constructor(properties?: ectp.conformance.v1.ItemFailure.$Properties);

                /** Unknown fields preserved while decoding when enabled */
                $unknowns?: Uint8Array[];

                /** The AdmitItem.item_id of the item that failed. */
                itemId: string;

                /** Why it failed. UNSPECIFIED is a malformed response. */
                reason: ectp.v1.FailureReason;

                /**
                 * Remote attempts made for it: the ReadRequests sent for the item (0 when none) [C6].
                 * Cases may check it.
                 */
                attempts: number;

                /**
                 * Creates a new ItemFailure instance using the specified properties.
                 * @param [properties] Properties to set
                 * @returns ItemFailure instance
                 */
                static create(properties: ectp.conformance.v1.ItemFailure.$Shape): ectp.conformance.v1.ItemFailure & ectp.conformance.v1.ItemFailure.$Shape;
                static create(properties?: ectp.conformance.v1.ItemFailure.$Properties): ectp.conformance.v1.ItemFailure;

                /**
                 * Encodes the specified ItemFailure message. Does not implicitly {@link ectp.conformance.v1.ItemFailure.verify|verify} messages.
                 * @param message ItemFailure message or plain object to encode
                 * @param [writer] Writer to encode to
                 * @returns Writer
                 */
                static encode(message: ectp.conformance.v1.ItemFailure.$Properties, writer?: $protobuf.Writer): $protobuf.Writer;

                /**
                 * Encodes the specified ItemFailure message, length delimited. Does not implicitly {@link ectp.conformance.v1.ItemFailure.verify|verify} messages.
                 * @param message ItemFailure message or plain object to encode
                 * @param [writer] Writer to encode to
                 * @returns Writer
                 */
                static encodeDelimited(message: ectp.conformance.v1.ItemFailure.$Properties, writer?: $protobuf.Writer): $protobuf.Writer;

                /**
                 * Decodes an ItemFailure message from the specified reader or buffer.
                 * @param reader Reader or buffer to decode from
                 * @param [length] Message length if known beforehand
                 * @returns {ectp.conformance.v1.ItemFailure & ectp.conformance.v1.ItemFailure.$Shape} ItemFailure
                 * @throws {Error} If the payload is not a reader or valid buffer
                 * @throws {$protobuf.util.ProtocolError} If required fields are missing
                 */
                static decode(reader: ($protobuf.Reader|Uint8Array), length?: number): ectp.conformance.v1.ItemFailure & ectp.conformance.v1.ItemFailure.$Shape;

                /**
                 * Decodes an ItemFailure message from the specified reader or buffer, length delimited.
                 * @param reader Reader or buffer to decode from
                 * @returns {ectp.conformance.v1.ItemFailure & ectp.conformance.v1.ItemFailure.$Shape} ItemFailure
                 * @throws {Error} If the payload is not a reader or valid buffer
                 * @throws {$protobuf.util.ProtocolError} If required fields are missing
                 */
                static decodeDelimited(reader: ($protobuf.Reader|Uint8Array)): ectp.conformance.v1.ItemFailure & ectp.conformance.v1.ItemFailure.$Shape;

                /**
                 * Verifies an ItemFailure message.
                 * @param message Plain object to verify
                 * @returns `null` if valid, otherwise the reason why it is not
                 */
                static verify(message: { [k: string]: any }): (string|null);

                /**
                 * Creates an ItemFailure message from a plain object. Also converts values to their respective internal types.
                 * @param object Plain object
                 * @returns ItemFailure
                 */
                static fromObject(object: { [k: string]: any }): ectp.conformance.v1.ItemFailure;

                /**
                 * Creates a plain object from an ItemFailure message. Also converts values to other types if specified.
                 * @param message ItemFailure
                 * @param [options] Conversion options
                 * @returns Plain object
                 */
                static toObject(message: ectp.conformance.v1.ItemFailure, options?: $protobuf.IConversionOptions): { [k: string]: any };

                /**
                 * Converts this ItemFailure to JSON.
                 * @returns JSON object
                 */
                toJSON(): { [k: string]: any };

                /**
                 * Gets the type url for ItemFailure
                 * @param [prefix] Custom type url prefix, defaults to `"type.googleapis.com"`
                 * @returns The type url
                 */
                static getTypeUrl(prefix?: string): string;
            }

            namespace ItemFailure {

                /** Properties of an ItemFailure. */
                interface $Properties {

                    /** The AdmitItem.item_id of the item that failed. */
                    itemId?: (string|null|undefined);

                    /** Why it failed. UNSPECIFIED is a malformed response. */
                    reason?: (ectp.v1.FailureReason|null|undefined);

                    /**
                     * Remote attempts made for it: the ReadRequests sent for the item (0 when none) [C6].
                     * Cases may check it.
                     */
                    attempts?: (number|null|undefined);

                    /** Unknown fields preserved while decoding when enabled */
                    $unknowns?: Uint8Array[];
                }

                /** Shape of an ItemFailure. */
                type $Shape = ectp.conformance.v1.ItemFailure.$Properties;
            }

            /**
             * Properties of a FinishRequest.
             * @deprecated Use ectp.conformance.v1.FinishRequest.$Properties instead.
             */
            interface IFinishRequest extends ectp.conformance.v1.FinishRequest.$Properties {
            }

            /**
             * The engine finished or cancelled a request [C7]. Answered with Ok (also
             * for an unknown request id, which is a no-op).
             */
            class FinishRequest {

                /**
                 * Constructs a new FinishRequest.
                 * @param [properties] Properties to set
                 */
                constructor(properties?: ectp.conformance.v1.FinishRequest.$Properties);

                /** Unknown fields preserved while decoding when enabled */
                $unknowns?: Uint8Array[];

                /** The request. Required. */
                requestId: string;

                /**
                 * Creates a new FinishRequest instance using the specified properties.
                 * @param [properties] Properties to set
                 * @returns FinishRequest instance
                 */
                static create(properties: ectp.conformance.v1.FinishRequest.$Shape): ectp.conformance.v1.FinishRequest & ectp.conformance.v1.FinishRequest.$Shape;
                static create(properties?: ectp.conformance.v1.FinishRequest.$Properties): ectp.conformance.v1.FinishRequest;

                /**
                 * Encodes the specified FinishRequest message. Does not implicitly {@link ectp.conformance.v1.FinishRequest.verify|verify} messages.
                 * @param message FinishRequest message or plain object to encode
                 * @param [writer] Writer to encode to
                 * @returns Writer
                 */
                static encode(message: ectp.conformance.v1.FinishRequest.$Properties, writer?: $protobuf.Writer): $protobuf.Writer;

                /**
                 * Encodes the specified FinishRequest message, length delimited. Does not implicitly {@link ectp.conformance.v1.FinishRequest.verify|verify} messages.
                 * @param message FinishRequest message or plain object to encode
                 * @param [writer] Writer to encode to
                 * @returns Writer
                 */
                static encodeDelimited(message: ectp.conformance.v1.FinishRequest.$Properties, writer?: $protobuf.Writer): $protobuf.Writer;

                /**
                 * Decodes a FinishRequest message from the specified reader or buffer.
                 * @param reader Reader or buffer to decode from
                 * @param [length] Message length if known beforehand
                 * @returns {ectp.conformance.v1.FinishRequest & ectp.conformance.v1.FinishRequest.$Shape} FinishRequest
                 * @throws {Error} If the payload is not a reader or valid buffer
                 * @throws {$protobuf.util.ProtocolError} If required fields are missing
                 */
                static decode(reader: ($protobuf.Reader|Uint8Array), length?: number): ectp.conformance.v1.FinishRequest & ectp.conformance.v1.FinishRequest.$Shape;

                /**
                 * Decodes a FinishRequest message from the specified reader or buffer, length delimited.
                 * @param reader Reader or buffer to decode from
                 * @returns {ectp.conformance.v1.FinishRequest & ectp.conformance.v1.FinishRequest.$Shape} FinishRequest
                 * @throws {Error} If the payload is not a reader or valid buffer
                 * @throws {$protobuf.util.ProtocolError} If required fields are missing
                 */
                static decodeDelimited(reader: ($protobuf.Reader|Uint8Array)): ectp.conformance.v1.FinishRequest & ectp.conformance.v1.FinishRequest.$Shape;

                /**
                 * Verifies a FinishRequest message.
                 * @param message Plain object to verify
                 * @returns `null` if valid, otherwise the reason why it is not
                 */
                static verify(message: { [k: string]: any }): (string|null);

                /**
                 * Creates a FinishRequest message from a plain object. Also converts values to their respective internal types.
                 * @param object Plain object
                 * @returns FinishRequest
                 */
                static fromObject(object: { [k: string]: any }): ectp.conformance.v1.FinishRequest;

                /**
                 * Creates a plain object from a FinishRequest message. Also converts values to other types if specified.
                 * @param message FinishRequest
                 * @param [options] Conversion options
                 * @returns Plain object
                 */
                static toObject(message: ectp.conformance.v1.FinishRequest, options?: $protobuf.IConversionOptions): { [k: string]: any };

                /**
                 * Converts this FinishRequest to JSON.
                 * @returns JSON object
                 */
                toJSON(): { [k: string]: any };

                /**
                 * Gets the type url for FinishRequest
                 * @param [prefix] Custom type url prefix, defaults to `"type.googleapis.com"`
                 * @returns The type url
                 */
                static getTypeUrl(prefix?: string): string;
            }

            namespace FinishRequest {

                /** Properties of a FinishRequest. */
                interface $Properties {

                    /** The request. Required. */
                    requestId?: (string|null|undefined);

                    /** Unknown fields preserved while decoding when enabled */
                    $unknowns?: Uint8Array[];
                }

                /** Shape of a FinishRequest. */
                type $Shape = ectp.conformance.v1.FinishRequest.$Properties;
            }

            /**
             * Properties of a DrainFailed.
             * @deprecated Use ectp.conformance.v1.DrainFailed.$Properties instead.
             */
            interface IDrainFailed extends ectp.conformance.v1.DrainFailed.$Properties {
            }

            /** Drain the failed requests reported since the previous drain [C6]. */
            class DrainFailed {

                /**
                 * Constructs a new DrainFailed.
                 * @param [properties] Properties to set
                 */
                constructor(properties?: ectp.conformance.v1.DrainFailed.$Properties);

                /** Unknown fields preserved while decoding when enabled */
                $unknowns?: Uint8Array[];

                /**
                 * Creates a new DrainFailed instance using the specified properties.
                 * @param [properties] Properties to set
                 * @returns DrainFailed instance
                 */
                static create(properties: ectp.conformance.v1.DrainFailed.$Shape): ectp.conformance.v1.DrainFailed & ectp.conformance.v1.DrainFailed.$Shape;
                static create(properties?: ectp.conformance.v1.DrainFailed.$Properties): ectp.conformance.v1.DrainFailed;

                /**
                 * Encodes the specified DrainFailed message. Does not implicitly {@link ectp.conformance.v1.DrainFailed.verify|verify} messages.
                 * @param message DrainFailed message or plain object to encode
                 * @param [writer] Writer to encode to
                 * @returns Writer
                 */
                static encode(message: ectp.conformance.v1.DrainFailed.$Properties, writer?: $protobuf.Writer): $protobuf.Writer;

                /**
                 * Encodes the specified DrainFailed message, length delimited. Does not implicitly {@link ectp.conformance.v1.DrainFailed.verify|verify} messages.
                 * @param message DrainFailed message or plain object to encode
                 * @param [writer] Writer to encode to
                 * @returns Writer
                 */
                static encodeDelimited(message: ectp.conformance.v1.DrainFailed.$Properties, writer?: $protobuf.Writer): $protobuf.Writer;

                /**
                 * Decodes a DrainFailed message from the specified reader or buffer.
                 * @param reader Reader or buffer to decode from
                 * @param [length] Message length if known beforehand
                 * @returns {ectp.conformance.v1.DrainFailed & ectp.conformance.v1.DrainFailed.$Shape} DrainFailed
                 * @throws {Error} If the payload is not a reader or valid buffer
                 * @throws {$protobuf.util.ProtocolError} If required fields are missing
                 */
                static decode(reader: ($protobuf.Reader|Uint8Array), length?: number): ectp.conformance.v1.DrainFailed & ectp.conformance.v1.DrainFailed.$Shape;

                /**
                 * Decodes a DrainFailed message from the specified reader or buffer, length delimited.
                 * @param reader Reader or buffer to decode from
                 * @returns {ectp.conformance.v1.DrainFailed & ectp.conformance.v1.DrainFailed.$Shape} DrainFailed
                 * @throws {Error} If the payload is not a reader or valid buffer
                 * @throws {$protobuf.util.ProtocolError} If required fields are missing
                 */
                static decodeDelimited(reader: ($protobuf.Reader|Uint8Array)): ectp.conformance.v1.DrainFailed & ectp.conformance.v1.DrainFailed.$Shape;

                /**
                 * Verifies a DrainFailed message.
                 * @param message Plain object to verify
                 * @returns `null` if valid, otherwise the reason why it is not
                 */
                static verify(message: { [k: string]: any }): (string|null);

                /**
                 * Creates a DrainFailed message from a plain object. Also converts values to their respective internal types.
                 * @param object Plain object
                 * @returns DrainFailed
                 */
                static fromObject(object: { [k: string]: any }): ectp.conformance.v1.DrainFailed;

                /**
                 * Creates a plain object from a DrainFailed message. Also converts values to other types if specified.
                 * @param message DrainFailed
                 * @param [options] Conversion options
                 * @returns Plain object
                 */
                static toObject(message: ectp.conformance.v1.DrainFailed, options?: $protobuf.IConversionOptions): { [k: string]: any };

                /**
                 * Converts this DrainFailed to JSON.
                 * @returns JSON object
                 */
                toJSON(): { [k: string]: any };

                /**
                 * Gets the type url for DrainFailed
                 * @param [prefix] Custom type url prefix, defaults to `"type.googleapis.com"`
                 * @returns The type url
                 */
                static getTypeUrl(prefix?: string): string;
            }

            namespace DrainFailed {

                /** Properties of a DrainFailed. */
                interface $Properties {

                    /** Unknown fields preserved while decoding when enabled */
                    $unknowns?: Uint8Array[];
                }

                /** Shape of a DrainFailed. */
                type $Shape = ectp.conformance.v1.DrainFailed.$Properties;
            }

            /**
             * Properties of a DrainFailedResult.
             * @deprecated Use ectp.conformance.v1.DrainFailedResult.$Properties instead.
             */
            interface IDrainFailedResult extends ectp.conformance.v1.DrainFailedResult.$Properties {
            }

            /** Answer to DrainFailed. */
            class DrainFailedResult {

                /**
                 * Constructs a new DrainFailedResult.
                 * @param [properties] Properties to set
                 */
                constructor(properties?: ectp.conformance.v1.DrainFailedResult.$Properties);

                /** Unknown fields preserved while decoding when enabled */
                $unknowns?: Uint8Array[];

                /** Every request that failed since the previous drain, each exactly once. */
                failed: ectp.conformance.v1.FailedRequest.$Properties[];

                /**
                 * Creates a new DrainFailedResult instance using the specified properties.
                 * @param [properties] Properties to set
                 * @returns DrainFailedResult instance
                 */
                static create(properties: ectp.conformance.v1.DrainFailedResult.$Shape): ectp.conformance.v1.DrainFailedResult & ectp.conformance.v1.DrainFailedResult.$Shape;
                static create(properties?: ectp.conformance.v1.DrainFailedResult.$Properties): ectp.conformance.v1.DrainFailedResult;

                /**
                 * Encodes the specified DrainFailedResult message. Does not implicitly {@link ectp.conformance.v1.DrainFailedResult.verify|verify} messages.
                 * @param message DrainFailedResult message or plain object to encode
                 * @param [writer] Writer to encode to
                 * @returns Writer
                 */
                static encode(message: ectp.conformance.v1.DrainFailedResult.$Properties, writer?: $protobuf.Writer): $protobuf.Writer;

                /**
                 * Encodes the specified DrainFailedResult message, length delimited. Does not implicitly {@link ectp.conformance.v1.DrainFailedResult.verify|verify} messages.
                 * @param message DrainFailedResult message or plain object to encode
                 * @param [writer] Writer to encode to
                 * @returns Writer
                 */
                static encodeDelimited(message: ectp.conformance.v1.DrainFailedResult.$Properties, writer?: $protobuf.Writer): $protobuf.Writer;

                /**
                 * Decodes a DrainFailedResult message from the specified reader or buffer.
                 * @param reader Reader or buffer to decode from
                 * @param [length] Message length if known beforehand
                 * @returns {ectp.conformance.v1.DrainFailedResult & ectp.conformance.v1.DrainFailedResult.$Shape} DrainFailedResult
                 * @throws {Error} If the payload is not a reader or valid buffer
                 * @throws {$protobuf.util.ProtocolError} If required fields are missing
                 */
                static decode(reader: ($protobuf.Reader|Uint8Array), length?: number): ectp.conformance.v1.DrainFailedResult & ectp.conformance.v1.DrainFailedResult.$Shape;

                /**
                 * Decodes a DrainFailedResult message from the specified reader or buffer, length delimited.
                 * @param reader Reader or buffer to decode from
                 * @returns {ectp.conformance.v1.DrainFailedResult & ectp.conformance.v1.DrainFailedResult.$Shape} DrainFailedResult
                 * @throws {Error} If the payload is not a reader or valid buffer
                 * @throws {$protobuf.util.ProtocolError} If required fields are missing
                 */
                static decodeDelimited(reader: ($protobuf.Reader|Uint8Array)): ectp.conformance.v1.DrainFailedResult & ectp.conformance.v1.DrainFailedResult.$Shape;

                /**
                 * Verifies a DrainFailedResult message.
                 * @param message Plain object to verify
                 * @returns `null` if valid, otherwise the reason why it is not
                 */
                static verify(message: { [k: string]: any }): (string|null);

                /**
                 * Creates a DrainFailedResult message from a plain object. Also converts values to their respective internal types.
                 * @param object Plain object
                 * @returns DrainFailedResult
                 */
                static fromObject(object: { [k: string]: any }): ectp.conformance.v1.DrainFailedResult;

                /**
                 * Creates a plain object from a DrainFailedResult message. Also converts values to other types if specified.
                 * @param message DrainFailedResult
                 * @param [options] Conversion options
                 * @returns Plain object
                 */
                static toObject(message: ectp.conformance.v1.DrainFailedResult, options?: $protobuf.IConversionOptions): { [k: string]: any };

                /**
                 * Converts this DrainFailedResult to JSON.
                 * @returns JSON object
                 */
                toJSON(): { [k: string]: any };

                /**
                 * Gets the type url for DrainFailedResult
                 * @param [prefix] Custom type url prefix, defaults to `"type.googleapis.com"`
                 * @returns The type url
                 */
                static getTypeUrl(prefix?: string): string;
            }

            namespace DrainFailedResult {

                /** Properties of a DrainFailedResult. */
                interface $Properties {

                    /** Every request that failed since the previous drain, each exactly once. */
                    failed?: (ectp.conformance.v1.FailedRequest.$Properties[]|null|undefined);

                    /** Unknown fields preserved while decoding when enabled */
                    $unknowns?: Uint8Array[];
                }

                /** Shape of a DrainFailedResult. */
                type $Shape = ectp.conformance.v1.DrainFailedResult.$Properties;
            }

            /**
             * Properties of a FailedRequest.
             * @deprecated Use ectp.conformance.v1.FailedRequest.$Properties instead.
             */
            interface IFailedRequest extends ectp.conformance.v1.FailedRequest.$Properties {
            }

            /** A failed request as drained. */
            class FailedRequest {

                /**
                 * Constructs a new FailedRequest.
                 * @param [properties] Properties to set
                 */
                constructor(properties?: ectp.conformance.v1.FailedRequest.$Properties);

                /** Unknown fields preserved while decoding when enabled */
                $unknowns?: Uint8Array[];

                /** The Admit.request_id of the request that failed. */
                requestId: string;

                /** A reason per failed item (at least one). */
                failures: ectp.conformance.v1.ItemFailure.$Properties[];

                /**
                 * Creates a new FailedRequest instance using the specified properties.
                 * @param [properties] Properties to set
                 * @returns FailedRequest instance
                 */
                static create(properties: ectp.conformance.v1.FailedRequest.$Shape): ectp.conformance.v1.FailedRequest & ectp.conformance.v1.FailedRequest.$Shape;
                static create(properties?: ectp.conformance.v1.FailedRequest.$Properties): ectp.conformance.v1.FailedRequest;

                /**
                 * Encodes the specified FailedRequest message. Does not implicitly {@link ectp.conformance.v1.FailedRequest.verify|verify} messages.
                 * @param message FailedRequest message or plain object to encode
                 * @param [writer] Writer to encode to
                 * @returns Writer
                 */
                static encode(message: ectp.conformance.v1.FailedRequest.$Properties, writer?: $protobuf.Writer): $protobuf.Writer;

                /**
                 * Encodes the specified FailedRequest message, length delimited. Does not implicitly {@link ectp.conformance.v1.FailedRequest.verify|verify} messages.
                 * @param message FailedRequest message or plain object to encode
                 * @param [writer] Writer to encode to
                 * @returns Writer
                 */
                static encodeDelimited(message: ectp.conformance.v1.FailedRequest.$Properties, writer?: $protobuf.Writer): $protobuf.Writer;

                /**
                 * Decodes a FailedRequest message from the specified reader or buffer.
                 * @param reader Reader or buffer to decode from
                 * @param [length] Message length if known beforehand
                 * @returns {ectp.conformance.v1.FailedRequest & ectp.conformance.v1.FailedRequest.$Shape} FailedRequest
                 * @throws {Error} If the payload is not a reader or valid buffer
                 * @throws {$protobuf.util.ProtocolError} If required fields are missing
                 */
                static decode(reader: ($protobuf.Reader|Uint8Array), length?: number): ectp.conformance.v1.FailedRequest & ectp.conformance.v1.FailedRequest.$Shape;

                /**
                 * Decodes a FailedRequest message from the specified reader or buffer, length delimited.
                 * @param reader Reader or buffer to decode from
                 * @returns {ectp.conformance.v1.FailedRequest & ectp.conformance.v1.FailedRequest.$Shape} FailedRequest
                 * @throws {Error} If the payload is not a reader or valid buffer
                 * @throws {$protobuf.util.ProtocolError} If required fields are missing
                 */
                static decodeDelimited(reader: ($protobuf.Reader|Uint8Array)): ectp.conformance.v1.FailedRequest & ectp.conformance.v1.FailedRequest.$Shape;

                /**
                 * Verifies a FailedRequest message.
                 * @param message Plain object to verify
                 * @returns `null` if valid, otherwise the reason why it is not
                 */
                static verify(message: { [k: string]: any }): (string|null);

                /**
                 * Creates a FailedRequest message from a plain object. Also converts values to their respective internal types.
                 * @param object Plain object
                 * @returns FailedRequest
                 */
                static fromObject(object: { [k: string]: any }): ectp.conformance.v1.FailedRequest;

                /**
                 * Creates a plain object from a FailedRequest message. Also converts values to other types if specified.
                 * @param message FailedRequest
                 * @param [options] Conversion options
                 * @returns Plain object
                 */
                static toObject(message: ectp.conformance.v1.FailedRequest, options?: $protobuf.IConversionOptions): { [k: string]: any };

                /**
                 * Converts this FailedRequest to JSON.
                 * @returns JSON object
                 */
                toJSON(): { [k: string]: any };

                /**
                 * Gets the type url for FailedRequest
                 * @param [prefix] Custom type url prefix, defaults to `"type.googleapis.com"`
                 * @returns The type url
                 */
                static getTypeUrl(prefix?: string): string;
            }

            namespace FailedRequest {

                /** Properties of a FailedRequest. */
                interface $Properties {

                    /** The Admit.request_id of the request that failed. */
                    requestId?: (string|null|undefined);

                    /** A reason per failed item (at least one). */
                    failures?: (ectp.conformance.v1.ItemFailure.$Properties[]|null|undefined);

                    /** Unknown fields preserved while decoding when enabled */
                    $unknowns?: Uint8Array[];
                }

                /** Shape of a FailedRequest. */
                type $Shape = ectp.conformance.v1.FailedRequest.$Properties;
            }

            /**
             * Properties of a DeliverReadResult.
             * @deprecated Use ectp.conformance.v1.DeliverReadResult.$Properties instead.
             */
            interface IDeliverReadResult extends ectp.conformance.v1.DeliverReadResult.$Properties {
            }

            /** A read the testee asked for (a StartRead output) has settled. */
            class DeliverReadResult {

                /**
                 * Constructs a new DeliverReadResult.
                 * @param [properties] Properties to set
                 */
                constructor(properties?: ectp.conformance.v1.DeliverReadResult.$Properties);

                /** Unknown fields preserved while decoding when enabled */
                $unknowns?: Uint8Array[];

                /** The read_id of the StartRead output. */
                readId: number;

                /**
                 * How the read ended: DONE (bytes landed, in `data`), FAILED or CANCELLED
                 * (ReadStatus); UNSPECIFIED is treated as FAILED.
                 */
                status: ectp.conformance.v1.ReadStatus;

                /**
                 * DONE: the bytes the transport wrote into the read's destination, from
                 * its start. The testee MUST copy them into that destination and let the
                 * implementation verify them (size always, checksum when given) [C11].
                 * Fewer or more bytes than the read's length model a short or overlong
                 * transfer. FAILED/CANCELLED: partial bytes, possibly empty.
                 */
                data: Uint8Array;

                /** The transport knows the peer is gone (e.g. NIXL REMOTE_DISCONNECT). */
                peerGone: boolean;

                /** Human-readable error for FAILED. Empty: none. */
                error: string;

                /**
                 * Creates a new DeliverReadResult instance using the specified properties.
                 * @param [properties] Properties to set
                 * @returns DeliverReadResult instance
                 */
                static create(properties: ectp.conformance.v1.DeliverReadResult.$Shape): ectp.conformance.v1.DeliverReadResult & ectp.conformance.v1.DeliverReadResult.$Shape;
                static create(properties?: ectp.conformance.v1.DeliverReadResult.$Properties): ectp.conformance.v1.DeliverReadResult;

                /**
                 * Encodes the specified DeliverReadResult message. Does not implicitly {@link ectp.conformance.v1.DeliverReadResult.verify|verify} messages.
                 * @param message DeliverReadResult message or plain object to encode
                 * @param [writer] Writer to encode to
                 * @returns Writer
                 */
                static encode(message: ectp.conformance.v1.DeliverReadResult.$Properties, writer?: $protobuf.Writer): $protobuf.Writer;

                /**
                 * Encodes the specified DeliverReadResult message, length delimited. Does not implicitly {@link ectp.conformance.v1.DeliverReadResult.verify|verify} messages.
                 * @param message DeliverReadResult message or plain object to encode
                 * @param [writer] Writer to encode to
                 * @returns Writer
                 */
                static encodeDelimited(message: ectp.conformance.v1.DeliverReadResult.$Properties, writer?: $protobuf.Writer): $protobuf.Writer;

                /**
                 * Decodes a DeliverReadResult message from the specified reader or buffer.
                 * @param reader Reader or buffer to decode from
                 * @param [length] Message length if known beforehand
                 * @returns {ectp.conformance.v1.DeliverReadResult & ectp.conformance.v1.DeliverReadResult.$Shape} DeliverReadResult
                 * @throws {Error} If the payload is not a reader or valid buffer
                 * @throws {$protobuf.util.ProtocolError} If required fields are missing
                 */
                static decode(reader: ($protobuf.Reader|Uint8Array), length?: number): ectp.conformance.v1.DeliverReadResult & ectp.conformance.v1.DeliverReadResult.$Shape;

                /**
                 * Decodes a DeliverReadResult message from the specified reader or buffer, length delimited.
                 * @param reader Reader or buffer to decode from
                 * @returns {ectp.conformance.v1.DeliverReadResult & ectp.conformance.v1.DeliverReadResult.$Shape} DeliverReadResult
                 * @throws {Error} If the payload is not a reader or valid buffer
                 * @throws {$protobuf.util.ProtocolError} If required fields are missing
                 */
                static decodeDelimited(reader: ($protobuf.Reader|Uint8Array)): ectp.conformance.v1.DeliverReadResult & ectp.conformance.v1.DeliverReadResult.$Shape;

                /**
                 * Verifies a DeliverReadResult message.
                 * @param message Plain object to verify
                 * @returns `null` if valid, otherwise the reason why it is not
                 */
                static verify(message: { [k: string]: any }): (string|null);

                /**
                 * Creates a DeliverReadResult message from a plain object. Also converts values to their respective internal types.
                 * @param object Plain object
                 * @returns DeliverReadResult
                 */
                static fromObject(object: { [k: string]: any }): ectp.conformance.v1.DeliverReadResult;

                /**
                 * Creates a plain object from a DeliverReadResult message. Also converts values to other types if specified.
                 * @param message DeliverReadResult
                 * @param [options] Conversion options
                 * @returns Plain object
                 */
                static toObject(message: ectp.conformance.v1.DeliverReadResult, options?: $protobuf.IConversionOptions): { [k: string]: any };

                /**
                 * Converts this DeliverReadResult to JSON.
                 * @returns JSON object
                 */
                toJSON(): { [k: string]: any };

                /**
                 * Gets the type url for DeliverReadResult
                 * @param [prefix] Custom type url prefix, defaults to `"type.googleapis.com"`
                 * @returns The type url
                 */
                static getTypeUrl(prefix?: string): string;
            }

            namespace DeliverReadResult {

                /** Properties of a DeliverReadResult. */
                interface $Properties {

                    /** The read_id of the StartRead output. */
                    readId?: (number|null|undefined);

                    /**
                     * How the read ended: DONE (bytes landed, in `data`), FAILED or CANCELLED
                     * (ReadStatus); UNSPECIFIED is treated as FAILED.
                     */
                    status?: (ectp.conformance.v1.ReadStatus|null|undefined);

                    /**
                     * DONE: the bytes the transport wrote into the read's destination, from
                     * its start. The testee MUST copy them into that destination and let the
                     * implementation verify them (size always, checksum when given) [C11].
                     * Fewer or more bytes than the read's length model a short or overlong
                     * transfer. FAILED/CANCELLED: partial bytes, possibly empty.
                     */
                    data?: (Uint8Array|null|undefined);

                    /** The transport knows the peer is gone (e.g. NIXL REMOTE_DISCONNECT). */
                    peerGone?: (boolean|null|undefined);

                    /** Human-readable error for FAILED. Empty: none. */
                    error?: (string|null|undefined);

                    /** Unknown fields preserved while decoding when enabled */
                    $unknowns?: Uint8Array[];
                }

                /** Shape of a DeliverReadResult. */
                type $Shape = ectp.conformance.v1.DeliverReadResult.$Properties;
            }

            /** How a read ended (the core's ReadStatus). */
            enum ReadStatus {

                /** Not given; treated as FAILED. */
                READ_STATUS_UNSPECIFIED = 0,

                /** Every byte was written. */
                READ_STATUS_DONE = 1,

                /** The read did not complete. */
                READ_STATUS_FAILED = 2,

                /** A cancel took effect. */
                READ_STATUS_CANCELLED = 3
            }

            /**
             * Properties of a PutItem.
             * @deprecated Use ectp.conformance.v1.PutItem.$Properties instead.
             */
            interface IPutItem extends ectp.conformance.v1.PutItem.$Properties {
            }

            /**
             * Write a new item into the store, not ready yet [P1]. Answered with
             * PutItemResult, or Error when it cannot fit (store full of pinned or
             * unready items).
             */
            class PutItem {

                /**
                 * Constructs a new PutItem.
                 * @param [properties] Properties to set
                 */
                constructor(properties?: ectp.conformance.v1.PutItem.$Properties);

                /** Unknown fields preserved while decoding when enabled */
                $unknowns?: Uint8Array[];

                /**
                 * The descriptor without location (the testee fills it in). key and
                 * size_bytes are required; dtype, shape and checksum are copied as given.
                 * producer_id and epoch are each decided on its own: one left unset (empty,
                 * 0) is filled in with the testee's own id or epoch, and one that is set is
                 * kept as given, so the store holds the item under another producer id or
                 * epoch (a store shared with another producer, or kept from an older
                 * epoch). Keeping such an item to itself is the producer's part
                 * (spec/SPEC.md 4.4).
                 */
                descriptor?: (ectp.v1.ItemDescriptor.$Properties|null|undefined);

                /** The item's bytes; size_bytes long. Empty when `fill` is set. */
                data: Uint8Array;

                /**
                 * Present: the item's bytes are size_bytes copies of this byte value (0 to
                 * 255), and `data` is empty. It lets a case put large items (the gigabyte
                 * of [P5]'s default quota) without sending their bytes; the testee makes
                 * the bytes itself, as `data` would have carried them. Absent: the bytes
                 * are `data`.
                 */
                fill?: (number|null|undefined);

                /**
                 * Creates a new PutItem instance using the specified properties.
                 * @param [properties] Properties to set
                 * @returns PutItem instance
                 */
                static create(properties: ectp.conformance.v1.PutItem.$Shape): ectp.conformance.v1.PutItem & ectp.conformance.v1.PutItem.$Shape;
                static create(properties?: ectp.conformance.v1.PutItem.$Properties): ectp.conformance.v1.PutItem;

                /**
                 * Encodes the specified PutItem message. Does not implicitly {@link ectp.conformance.v1.PutItem.verify|verify} messages.
                 * @param message PutItem message or plain object to encode
                 * @param [writer] Writer to encode to
                 * @returns Writer
                 */
                static encode(message: ectp.conformance.v1.PutItem.$Properties, writer?: $protobuf.Writer): $protobuf.Writer;

                /**
                 * Encodes the specified PutItem message, length delimited. Does not implicitly {@link ectp.conformance.v1.PutItem.verify|verify} messages.
                 * @param message PutItem message or plain object to encode
                 * @param [writer] Writer to encode to
                 * @returns Writer
                 */
                static encodeDelimited(message: ectp.conformance.v1.PutItem.$Properties, writer?: $protobuf.Writer): $protobuf.Writer;

                /**
                 * Decodes a PutItem message from the specified reader or buffer.
                 * @param reader Reader or buffer to decode from
                 * @param [length] Message length if known beforehand
                 * @returns {ectp.conformance.v1.PutItem & ectp.conformance.v1.PutItem.$Shape} PutItem
                 * @throws {Error} If the payload is not a reader or valid buffer
                 * @throws {$protobuf.util.ProtocolError} If required fields are missing
                 */
                static decode(reader: ($protobuf.Reader|Uint8Array), length?: number): ectp.conformance.v1.PutItem & ectp.conformance.v1.PutItem.$Shape;

                /**
                 * Decodes a PutItem message from the specified reader or buffer, length delimited.
                 * @param reader Reader or buffer to decode from
                 * @returns {ectp.conformance.v1.PutItem & ectp.conformance.v1.PutItem.$Shape} PutItem
                 * @throws {Error} If the payload is not a reader or valid buffer
                 * @throws {$protobuf.util.ProtocolError} If required fields are missing
                 */
                static decodeDelimited(reader: ($protobuf.Reader|Uint8Array)): ectp.conformance.v1.PutItem & ectp.conformance.v1.PutItem.$Shape;

                /**
                 * Verifies a PutItem message.
                 * @param message Plain object to verify
                 * @returns `null` if valid, otherwise the reason why it is not
                 */
                static verify(message: { [k: string]: any }): (string|null);

                /**
                 * Creates a PutItem message from a plain object. Also converts values to their respective internal types.
                 * @param object Plain object
                 * @returns PutItem
                 */
                static fromObject(object: { [k: string]: any }): ectp.conformance.v1.PutItem;

                /**
                 * Creates a plain object from a PutItem message. Also converts values to other types if specified.
                 * @param message PutItem
                 * @param [options] Conversion options
                 * @returns Plain object
                 */
                static toObject(message: ectp.conformance.v1.PutItem, options?: $protobuf.IConversionOptions): { [k: string]: any };

                /**
                 * Converts this PutItem to JSON.
                 * @returns JSON object
                 */
                toJSON(): { [k: string]: any };

                /**
                 * Gets the type url for PutItem
                 * @param [prefix] Custom type url prefix, defaults to `"type.googleapis.com"`
                 * @returns The type url
                 */
                static getTypeUrl(prefix?: string): string;
            }

            namespace PutItem {

                /** Properties of a PutItem. */
                interface $Properties {

                    /**
                     * The descriptor without location (the testee fills it in). key and
                     * size_bytes are required; dtype, shape and checksum are copied as given.
                     * producer_id and epoch are each decided on its own: one left unset (empty,
                     * 0) is filled in with the testee's own id or epoch, and one that is set is
                     * kept as given, so the store holds the item under another producer id or
                     * epoch (a store shared with another producer, or kept from an older
                     * epoch). Keeping such an item to itself is the producer's part
                     * (spec/SPEC.md 4.4).
                     */
                    descriptor?: (ectp.v1.ItemDescriptor.$Properties|null|undefined);

                    /** The item's bytes; size_bytes long. Empty when `fill` is set. */
                    data?: (Uint8Array|null|undefined);

                    /**
                     * Present: the item's bytes are size_bytes copies of this byte value (0 to
                     * 255), and `data` is empty. It lets a case put large items (the gigabyte
                     * of [P5]'s default quota) without sending their bytes; the testee makes
                     * the bytes itself, as `data` would have carried them. Absent: the bytes
                     * are `data`.
                     */
                    fill?: (number|null|undefined);

                    /** Unknown fields preserved while decoding when enabled */
                    $unknowns?: Uint8Array[];
                }

                /** Shape of a PutItem. */
                type $Shape = ectp.conformance.v1.PutItem.$Properties;
            }

            /**
             * Properties of a PutItemResult.
             * @deprecated Use ectp.conformance.v1.PutItemResult.$Properties instead.
             */
            interface IPutItemResult extends ectp.conformance.v1.PutItemResult.$Properties {
            }

            /** Answer to PutItem. */
            class PutItemResult {

                /**
                 * Constructs a new PutItemResult.
                 * @param [properties] Properties to set
                 */
                constructor(properties?: ectp.conformance.v1.PutItemResult.$Properties);

                /** Unknown fields preserved while decoding when enabled */
                $unknowns?: Uint8Array[];

                /**
                 * The stored item's full descriptor (location, producer_id and epoch filled
                 * in: the producer's own, or each as the PutItem set it).
                 */
                descriptor?: (ectp.v1.ItemDescriptor.$Properties|null|undefined);

                /**
                 * Creates a new PutItemResult instance using the specified properties.
                 * @param [properties] Properties to set
                 * @returns PutItemResult instance
                 */
                static create(properties: ectp.conformance.v1.PutItemResult.$Shape): ectp.conformance.v1.PutItemResult & ectp.conformance.v1.PutItemResult.$Shape;
                static create(properties?: ectp.conformance.v1.PutItemResult.$Properties): ectp.conformance.v1.PutItemResult;

                /**
                 * Encodes the specified PutItemResult message. Does not implicitly {@link ectp.conformance.v1.PutItemResult.verify|verify} messages.
                 * @param message PutItemResult message or plain object to encode
                 * @param [writer] Writer to encode to
                 * @returns Writer
                 */
                static encode(message: ectp.conformance.v1.PutItemResult.$Properties, writer?: $protobuf.Writer): $protobuf.Writer;

                /**
                 * Encodes the specified PutItemResult message, length delimited. Does not implicitly {@link ectp.conformance.v1.PutItemResult.verify|verify} messages.
                 * @param message PutItemResult message or plain object to encode
                 * @param [writer] Writer to encode to
                 * @returns Writer
                 */
                static encodeDelimited(message: ectp.conformance.v1.PutItemResult.$Properties, writer?: $protobuf.Writer): $protobuf.Writer;

                /**
                 * Decodes a PutItemResult message from the specified reader or buffer.
                 * @param reader Reader or buffer to decode from
                 * @param [length] Message length if known beforehand
                 * @returns {ectp.conformance.v1.PutItemResult & ectp.conformance.v1.PutItemResult.$Shape} PutItemResult
                 * @throws {Error} If the payload is not a reader or valid buffer
                 * @throws {$protobuf.util.ProtocolError} If required fields are missing
                 */
                static decode(reader: ($protobuf.Reader|Uint8Array), length?: number): ectp.conformance.v1.PutItemResult & ectp.conformance.v1.PutItemResult.$Shape;

                /**
                 * Decodes a PutItemResult message from the specified reader or buffer, length delimited.
                 * @param reader Reader or buffer to decode from
                 * @returns {ectp.conformance.v1.PutItemResult & ectp.conformance.v1.PutItemResult.$Shape} PutItemResult
                 * @throws {Error} If the payload is not a reader or valid buffer
                 * @throws {$protobuf.util.ProtocolError} If required fields are missing
                 */
                static decodeDelimited(reader: ($protobuf.Reader|Uint8Array)): ectp.conformance.v1.PutItemResult & ectp.conformance.v1.PutItemResult.$Shape;

                /**
                 * Verifies a PutItemResult message.
                 * @param message Plain object to verify
                 * @returns `null` if valid, otherwise the reason why it is not
                 */
                static verify(message: { [k: string]: any }): (string|null);

                /**
                 * Creates a PutItemResult message from a plain object. Also converts values to their respective internal types.
                 * @param object Plain object
                 * @returns PutItemResult
                 */
                static fromObject(object: { [k: string]: any }): ectp.conformance.v1.PutItemResult;

                /**
                 * Creates a plain object from a PutItemResult message. Also converts values to other types if specified.
                 * @param message PutItemResult
                 * @param [options] Conversion options
                 * @returns Plain object
                 */
                static toObject(message: ectp.conformance.v1.PutItemResult, options?: $protobuf.IConversionOptions): { [k: string]: any };

                /**
                 * Converts this PutItemResult to JSON.
                 * @returns JSON object
                 */
                toJSON(): { [k: string]: any };

                /**
                 * Gets the type url for PutItemResult
                 * @param [prefix] Custom type url prefix, defaults to `"type.googleapis.com"`
                 * @returns The type url
                 */
                static getTypeUrl(prefix?: string): string;
            }

            namespace PutItemResult {

                /** Properties of a PutItemResult. */
                interface $Properties {

                    /**
                     * The stored item's full descriptor (location, producer_id and epoch filled
                     * in: the producer's own, or each as the PutItem set it).
                     */
                    descriptor?: (ectp.v1.ItemDescriptor.$Properties|null|undefined);

                    /** Unknown fields preserved while decoding when enabled */
                    $unknowns?: Uint8Array[];
                }

                /** Shape of a PutItemResult. */
                type $Shape = ectp.conformance.v1.PutItemResult.$Properties;
            }

            /**
             * Properties of a MarkReady.
             * @deprecated Use ectp.conformance.v1.MarkReady.$Properties instead.
             */
            interface IMarkReady extends ectp.conformance.v1.MarkReady.$Properties {
            }

            /**
             * Mark an item fully written [P1]; it becomes grantable and a Stored event
             * follows [E1]. Answered with Ok, or Error for an unknown key.
             */
            class MarkReady {

                /**
                 * Constructs a new MarkReady.
                 * @param [properties] Properties to set
                 */
                constructor(properties?: ectp.conformance.v1.MarkReady.$Properties);

                /** Unknown fields preserved while decoding when enabled */
                $unknowns?: Uint8Array[];

                /** The item. Required. */
                key?: (ectp.v1.ItemKey.$Properties|null|undefined);

                /**
                 * Creates a new MarkReady instance using the specified properties.
                 * @param [properties] Properties to set
                 * @returns MarkReady instance
                 */
                static create(properties: ectp.conformance.v1.MarkReady.$Shape): ectp.conformance.v1.MarkReady & ectp.conformance.v1.MarkReady.$Shape;
                static create(properties?: ectp.conformance.v1.MarkReady.$Properties): ectp.conformance.v1.MarkReady;

                /**
                 * Encodes the specified MarkReady message. Does not implicitly {@link ectp.conformance.v1.MarkReady.verify|verify} messages.
                 * @param message MarkReady message or plain object to encode
                 * @param [writer] Writer to encode to
                 * @returns Writer
                 */
                static encode(message: ectp.conformance.v1.MarkReady.$Properties, writer?: $protobuf.Writer): $protobuf.Writer;

                /**
                 * Encodes the specified MarkReady message, length delimited. Does not implicitly {@link ectp.conformance.v1.MarkReady.verify|verify} messages.
                 * @param message MarkReady message or plain object to encode
                 * @param [writer] Writer to encode to
                 * @returns Writer
                 */
                static encodeDelimited(message: ectp.conformance.v1.MarkReady.$Properties, writer?: $protobuf.Writer): $protobuf.Writer;

                /**
                 * Decodes a MarkReady message from the specified reader or buffer.
                 * @param reader Reader or buffer to decode from
                 * @param [length] Message length if known beforehand
                 * @returns {ectp.conformance.v1.MarkReady & ectp.conformance.v1.MarkReady.$Shape} MarkReady
                 * @throws {Error} If the payload is not a reader or valid buffer
                 * @throws {$protobuf.util.ProtocolError} If required fields are missing
                 */
                static decode(reader: ($protobuf.Reader|Uint8Array), length?: number): ectp.conformance.v1.MarkReady & ectp.conformance.v1.MarkReady.$Shape;

                /**
                 * Decodes a MarkReady message from the specified reader or buffer, length delimited.
                 * @param reader Reader or buffer to decode from
                 * @returns {ectp.conformance.v1.MarkReady & ectp.conformance.v1.MarkReady.$Shape} MarkReady
                 * @throws {Error} If the payload is not a reader or valid buffer
                 * @throws {$protobuf.util.ProtocolError} If required fields are missing
                 */
                static decodeDelimited(reader: ($protobuf.Reader|Uint8Array)): ectp.conformance.v1.MarkReady & ectp.conformance.v1.MarkReady.$Shape;

                /**
                 * Verifies a MarkReady message.
                 * @param message Plain object to verify
                 * @returns `null` if valid, otherwise the reason why it is not
                 */
                static verify(message: { [k: string]: any }): (string|null);

                /**
                 * Creates a MarkReady message from a plain object. Also converts values to their respective internal types.
                 * @param object Plain object
                 * @returns MarkReady
                 */
                static fromObject(object: { [k: string]: any }): ectp.conformance.v1.MarkReady;

                /**
                 * Creates a plain object from a MarkReady message. Also converts values to other types if specified.
                 * @param message MarkReady
                 * @param [options] Conversion options
                 * @returns Plain object
                 */
                static toObject(message: ectp.conformance.v1.MarkReady, options?: $protobuf.IConversionOptions): { [k: string]: any };

                /**
                 * Converts this MarkReady to JSON.
                 * @returns JSON object
                 */
                toJSON(): { [k: string]: any };

                /**
                 * Gets the type url for MarkReady
                 * @param [prefix] Custom type url prefix, defaults to `"type.googleapis.com"`
                 * @returns The type url
                 */
                static getTypeUrl(prefix?: string): string;
            }

            namespace MarkReady {

                /** Properties of a MarkReady. */
                interface $Properties {

                    /** The item. Required. */
                    key?: (ectp.v1.ItemKey.$Properties|null|undefined);

                    /** Unknown fields preserved while decoding when enabled */
                    $unknowns?: Uint8Array[];
                }

                /** Shape of a MarkReady. */
                type $Shape = ectp.conformance.v1.MarkReady.$Properties;
            }

            /**
             * Properties of a Discard.
             * @deprecated Use ectp.conformance.v1.Discard.$Properties instead.
             */
            interface IDiscard extends ectp.conformance.v1.Discard.$Properties {
            }

            /**
             * Drop an item that is not ready (a failed write); a Removed(DISCARDED)
             * event follows [P6][E1]. Answered with Ok, or Error for an unknown key.
             */
            class Discard {

                /**
                 * Constructs a new Discard.
                 * @param [properties] Properties to set
                 */
                constructor(properties?: ectp.conformance.v1.Discard.$Properties);

                /** Unknown fields preserved while decoding when enabled */
                $unknowns?: Uint8Array[];

                /** The item. Required. */
                key?: (ectp.v1.ItemKey.$Properties|null|undefined);

                /**
                 * Creates a new Discard instance using the specified properties.
                 * @param [properties] Properties to set
                 * @returns Discard instance
                 */
                static create(properties: ectp.conformance.v1.Discard.$Shape): ectp.conformance.v1.Discard & ectp.conformance.v1.Discard.$Shape;
                static create(properties?: ectp.conformance.v1.Discard.$Properties): ectp.conformance.v1.Discard;

                /**
                 * Encodes the specified Discard message. Does not implicitly {@link ectp.conformance.v1.Discard.verify|verify} messages.
                 * @param message Discard message or plain object to encode
                 * @param [writer] Writer to encode to
                 * @returns Writer
                 */
                static encode(message: ectp.conformance.v1.Discard.$Properties, writer?: $protobuf.Writer): $protobuf.Writer;

                /**
                 * Encodes the specified Discard message, length delimited. Does not implicitly {@link ectp.conformance.v1.Discard.verify|verify} messages.
                 * @param message Discard message or plain object to encode
                 * @param [writer] Writer to encode to
                 * @returns Writer
                 */
                static encodeDelimited(message: ectp.conformance.v1.Discard.$Properties, writer?: $protobuf.Writer): $protobuf.Writer;

                /**
                 * Decodes a Discard message from the specified reader or buffer.
                 * @param reader Reader or buffer to decode from
                 * @param [length] Message length if known beforehand
                 * @returns {ectp.conformance.v1.Discard & ectp.conformance.v1.Discard.$Shape} Discard
                 * @throws {Error} If the payload is not a reader or valid buffer
                 * @throws {$protobuf.util.ProtocolError} If required fields are missing
                 */
                static decode(reader: ($protobuf.Reader|Uint8Array), length?: number): ectp.conformance.v1.Discard & ectp.conformance.v1.Discard.$Shape;

                /**
                 * Decodes a Discard message from the specified reader or buffer, length delimited.
                 * @param reader Reader or buffer to decode from
                 * @returns {ectp.conformance.v1.Discard & ectp.conformance.v1.Discard.$Shape} Discard
                 * @throws {Error} If the payload is not a reader or valid buffer
                 * @throws {$protobuf.util.ProtocolError} If required fields are missing
                 */
                static decodeDelimited(reader: ($protobuf.Reader|Uint8Array)): ectp.conformance.v1.Discard & ectp.conformance.v1.Discard.$Shape;

                /**
                 * Verifies a Discard message.
                 * @param message Plain object to verify
                 * @returns `null` if valid, otherwise the reason why it is not
                 */
                static verify(message: { [k: string]: any }): (string|null);

                /**
                 * Creates a Discard message from a plain object. Also converts values to their respective internal types.
                 * @param object Plain object
                 * @returns Discard
                 */
                static fromObject(object: { [k: string]: any }): ectp.conformance.v1.Discard;

                /**
                 * Creates a plain object from a Discard message. Also converts values to other types if specified.
                 * @param message Discard
                 * @param [options] Conversion options
                 * @returns Plain object
                 */
                static toObject(message: ectp.conformance.v1.Discard, options?: $protobuf.IConversionOptions): { [k: string]: any };

                /**
                 * Converts this Discard to JSON.
                 * @returns JSON object
                 */
                toJSON(): { [k: string]: any };

                /**
                 * Gets the type url for Discard
                 * @param [prefix] Custom type url prefix, defaults to `"type.googleapis.com"`
                 * @returns The type url
                 */
                static getTypeUrl(prefix?: string): string;
            }

            namespace Discard {

                /** Properties of a Discard. */
                interface $Properties {

                    /** The item. Required. */
                    key?: (ectp.v1.ItemKey.$Properties|null|undefined);

                    /** Unknown fields preserved while decoding when enabled */
                    $unknowns?: Uint8Array[];
                }

                /** Shape of a Discard. */
                type $Shape = ectp.conformance.v1.Discard.$Properties;
            }

            /**
             * Properties of an Evict.
             * @deprecated Use ectp.conformance.v1.Evict.$Properties instead.
             */
            interface IEvict extends ectp.conformance.v1.Evict.$Properties {
            }

            /**
             * Optional feature "evict": evict one item now, as memory pressure would.
             * Only ready, unpinned items may go [P6]: a pinned or unready item is
             * answered with Error and stays. Answered with Ok when it was evicted
             * (a Removed(EVICTED) event follows).
             */
            class Evict {

                /**
                 * Constructs a new Evict.
                 * @param [properties] Properties to set
                 */
                constructor(properties?: ectp.conformance.v1.Evict.$Properties);

                /** Unknown fields preserved while decoding when enabled */
                $unknowns?: Uint8Array[];

                /** The item. Required. */
                key?: (ectp.v1.ItemKey.$Properties|null|undefined);

                /**
                 * Creates a new Evict instance using the specified properties.
                 * @param [properties] Properties to set
                 * @returns Evict instance
                 */
                static create(properties: ectp.conformance.v1.Evict.$Shape): ectp.conformance.v1.Evict & ectp.conformance.v1.Evict.$Shape;
                static create(properties?: ectp.conformance.v1.Evict.$Properties): ectp.conformance.v1.Evict;

                /**
                 * Encodes the specified Evict message. Does not implicitly {@link ectp.conformance.v1.Evict.verify|verify} messages.
                 * @param message Evict message or plain object to encode
                 * @param [writer] Writer to encode to
                 * @returns Writer
                 */
                static encode(message: ectp.conformance.v1.Evict.$Properties, writer?: $protobuf.Writer): $protobuf.Writer;

                /**
                 * Encodes the specified Evict message, length delimited. Does not implicitly {@link ectp.conformance.v1.Evict.verify|verify} messages.
                 * @param message Evict message or plain object to encode
                 * @param [writer] Writer to encode to
                 * @returns Writer
                 */
                static encodeDelimited(message: ectp.conformance.v1.Evict.$Properties, writer?: $protobuf.Writer): $protobuf.Writer;

                /**
                 * Decodes an Evict message from the specified reader or buffer.
                 * @param reader Reader or buffer to decode from
                 * @param [length] Message length if known beforehand
                 * @returns {ectp.conformance.v1.Evict & ectp.conformance.v1.Evict.$Shape} Evict
                 * @throws {Error} If the payload is not a reader or valid buffer
                 * @throws {$protobuf.util.ProtocolError} If required fields are missing
                 */
                static decode(reader: ($protobuf.Reader|Uint8Array), length?: number): ectp.conformance.v1.Evict & ectp.conformance.v1.Evict.$Shape;

                /**
                 * Decodes an Evict message from the specified reader or buffer, length delimited.
                 * @param reader Reader or buffer to decode from
                 * @returns {ectp.conformance.v1.Evict & ectp.conformance.v1.Evict.$Shape} Evict
                 * @throws {Error} If the payload is not a reader or valid buffer
                 * @throws {$protobuf.util.ProtocolError} If required fields are missing
                 */
                static decodeDelimited(reader: ($protobuf.Reader|Uint8Array)): ectp.conformance.v1.Evict & ectp.conformance.v1.Evict.$Shape;

                /**
                 * Verifies an Evict message.
                 * @param message Plain object to verify
                 * @returns `null` if valid, otherwise the reason why it is not
                 */
                static verify(message: { [k: string]: any }): (string|null);

                /**
                 * Creates an Evict message from a plain object. Also converts values to their respective internal types.
                 * @param object Plain object
                 * @returns Evict
                 */
                static fromObject(object: { [k: string]: any }): ectp.conformance.v1.Evict;

                /**
                 * Creates a plain object from an Evict message. Also converts values to other types if specified.
                 * @param message Evict
                 * @param [options] Conversion options
                 * @returns Plain object
                 */
                static toObject(message: ectp.conformance.v1.Evict, options?: $protobuf.IConversionOptions): { [k: string]: any };

                /**
                 * Converts this Evict to JSON.
                 * @returns JSON object
                 */
                toJSON(): { [k: string]: any };

                /**
                 * Gets the type url for Evict
                 * @param [prefix] Custom type url prefix, defaults to `"type.googleapis.com"`
                 * @returns The type url
                 */
                static getTypeUrl(prefix?: string): string;
            }

            namespace Evict {

                /** Properties of an Evict. */
                interface $Properties {

                    /** The item. Required. */
                    key?: (ectp.v1.ItemKey.$Properties|null|undefined);

                    /** Unknown fields preserved while decoding when enabled */
                    $unknowns?: Uint8Array[];
                }

                /** Shape of an Evict. */
                type $Shape = ectp.conformance.v1.Evict.$Properties;
            }

            /**
             * Properties of a ClearStore.
             * @deprecated Use ectp.conformance.v1.ClearStore.$Properties instead.
             */
            interface IClearStore extends ectp.conformance.v1.ClearStore.$Properties {
            }

            /**
             * Reset the region: drop every item, pinned ones included; every live grant
             * ends at once (pins and grants are 0 when it returns [P2]), and a
             * Cleared(RESET) event follows [E1].
             */
            class ClearStore {

                /**
                 * Constructs a new ClearStore.
                 * @param [properties] Properties to set
                 */
                constructor(properties?: ectp.conformance.v1.ClearStore.$Properties);

                /** Unknown fields preserved while decoding when enabled */
                $unknowns?: Uint8Array[];

                /**
                 * Creates a new ClearStore instance using the specified properties.
                 * @param [properties] Properties to set
                 * @returns ClearStore instance
                 */
                static create(properties: ectp.conformance.v1.ClearStore.$Shape): ectp.conformance.v1.ClearStore & ectp.conformance.v1.ClearStore.$Shape;
                static create(properties?: ectp.conformance.v1.ClearStore.$Properties): ectp.conformance.v1.ClearStore;

                /**
                 * Encodes the specified ClearStore message. Does not implicitly {@link ectp.conformance.v1.ClearStore.verify|verify} messages.
                 * @param message ClearStore message or plain object to encode
                 * @param [writer] Writer to encode to
                 * @returns Writer
                 */
                static encode(message: ectp.conformance.v1.ClearStore.$Properties, writer?: $protobuf.Writer): $protobuf.Writer;

                /**
                 * Encodes the specified ClearStore message, length delimited. Does not implicitly {@link ectp.conformance.v1.ClearStore.verify|verify} messages.
                 * @param message ClearStore message or plain object to encode
                 * @param [writer] Writer to encode to
                 * @returns Writer
                 */
                static encodeDelimited(message: ectp.conformance.v1.ClearStore.$Properties, writer?: $protobuf.Writer): $protobuf.Writer;

                /**
                 * Decodes a ClearStore message from the specified reader or buffer.
                 * @param reader Reader or buffer to decode from
                 * @param [length] Message length if known beforehand
                 * @returns {ectp.conformance.v1.ClearStore & ectp.conformance.v1.ClearStore.$Shape} ClearStore
                 * @throws {Error} If the payload is not a reader or valid buffer
                 * @throws {$protobuf.util.ProtocolError} If required fields are missing
                 */
                static decode(reader: ($protobuf.Reader|Uint8Array), length?: number): ectp.conformance.v1.ClearStore & ectp.conformance.v1.ClearStore.$Shape;

                /**
                 * Decodes a ClearStore message from the specified reader or buffer, length delimited.
                 * @param reader Reader or buffer to decode from
                 * @returns {ectp.conformance.v1.ClearStore & ectp.conformance.v1.ClearStore.$Shape} ClearStore
                 * @throws {Error} If the payload is not a reader or valid buffer
                 * @throws {$protobuf.util.ProtocolError} If required fields are missing
                 */
                static decodeDelimited(reader: ($protobuf.Reader|Uint8Array)): ectp.conformance.v1.ClearStore & ectp.conformance.v1.ClearStore.$Shape;

                /**
                 * Verifies a ClearStore message.
                 * @param message Plain object to verify
                 * @returns `null` if valid, otherwise the reason why it is not
                 */
                static verify(message: { [k: string]: any }): (string|null);

                /**
                 * Creates a ClearStore message from a plain object. Also converts values to their respective internal types.
                 * @param object Plain object
                 * @returns ClearStore
                 */
                static fromObject(object: { [k: string]: any }): ectp.conformance.v1.ClearStore;

                /**
                 * Creates a plain object from a ClearStore message. Also converts values to other types if specified.
                 * @param message ClearStore
                 * @param [options] Conversion options
                 * @returns Plain object
                 */
                static toObject(message: ectp.conformance.v1.ClearStore, options?: $protobuf.IConversionOptions): { [k: string]: any };

                /**
                 * Converts this ClearStore to JSON.
                 * @returns JSON object
                 */
                toJSON(): { [k: string]: any };

                /**
                 * Gets the type url for ClearStore
                 * @param [prefix] Custom type url prefix, defaults to `"type.googleapis.com"`
                 * @returns The type url
                 */
                static getTypeUrl(prefix?: string): string;
            }

            namespace ClearStore {

                /** Properties of a ClearStore. */
                interface $Properties {

                    /** Unknown fields preserved while decoding when enabled */
                    $unknowns?: Uint8Array[];
                }

                /** Shape of a ClearStore. */
                type $Shape = ectp.conformance.v1.ClearStore.$Properties;
            }

            /**
             * Properties of an Announce.
             * @deprecated Use ectp.conformance.v1.Announce.$Properties instead.
             */
            interface IAnnounce extends ectp.conformance.v1.Announce.$Properties {
            }

            /** Produce the announcement for an item [P4] (never pins). */
            class Announce {

                /**
                 * Constructs a new Announce.
                 * @param [properties] Properties to set
                 */
                constructor(properties?: ectp.conformance.v1.Announce.$Properties);

                /** Unknown fields preserved while decoding when enabled */
                $unknowns?: Uint8Array[];

                /** The item. Required. */
                key?: (ectp.v1.ItemKey.$Properties|null|undefined);

                /**
                 * Creates a new Announce instance using the specified properties.
                 * @param [properties] Properties to set
                 * @returns Announce instance
                 */
                static create(properties: ectp.conformance.v1.Announce.$Shape): ectp.conformance.v1.Announce & ectp.conformance.v1.Announce.$Shape;
                static create(properties?: ectp.conformance.v1.Announce.$Properties): ectp.conformance.v1.Announce;

                /**
                 * Encodes the specified Announce message. Does not implicitly {@link ectp.conformance.v1.Announce.verify|verify} messages.
                 * @param message Announce message or plain object to encode
                 * @param [writer] Writer to encode to
                 * @returns Writer
                 */
                static encode(message: ectp.conformance.v1.Announce.$Properties, writer?: $protobuf.Writer): $protobuf.Writer;

                /**
                 * Encodes the specified Announce message, length delimited. Does not implicitly {@link ectp.conformance.v1.Announce.verify|verify} messages.
                 * @param message Announce message or plain object to encode
                 * @param [writer] Writer to encode to
                 * @returns Writer
                 */
                static encodeDelimited(message: ectp.conformance.v1.Announce.$Properties, writer?: $protobuf.Writer): $protobuf.Writer;

                /**
                 * Decodes an Announce message from the specified reader or buffer.
                 * @param reader Reader or buffer to decode from
                 * @param [length] Message length if known beforehand
                 * @returns {ectp.conformance.v1.Announce & ectp.conformance.v1.Announce.$Shape} Announce
                 * @throws {Error} If the payload is not a reader or valid buffer
                 * @throws {$protobuf.util.ProtocolError} If required fields are missing
                 */
                static decode(reader: ($protobuf.Reader|Uint8Array), length?: number): ectp.conformance.v1.Announce & ectp.conformance.v1.Announce.$Shape;

                /**
                 * Decodes an Announce message from the specified reader or buffer, length delimited.
                 * @param reader Reader or buffer to decode from
                 * @returns {ectp.conformance.v1.Announce & ectp.conformance.v1.Announce.$Shape} Announce
                 * @throws {Error} If the payload is not a reader or valid buffer
                 * @throws {$protobuf.util.ProtocolError} If required fields are missing
                 */
                static decodeDelimited(reader: ($protobuf.Reader|Uint8Array)): ectp.conformance.v1.Announce & ectp.conformance.v1.Announce.$Shape;

                /**
                 * Verifies an Announce message.
                 * @param message Plain object to verify
                 * @returns `null` if valid, otherwise the reason why it is not
                 */
                static verify(message: { [k: string]: any }): (string|null);

                /**
                 * Creates an Announce message from a plain object. Also converts values to their respective internal types.
                 * @param object Plain object
                 * @returns Announce
                 */
                static fromObject(object: { [k: string]: any }): ectp.conformance.v1.Announce;

                /**
                 * Creates a plain object from an Announce message. Also converts values to other types if specified.
                 * @param message Announce
                 * @param [options] Conversion options
                 * @returns Plain object
                 */
                static toObject(message: ectp.conformance.v1.Announce, options?: $protobuf.IConversionOptions): { [k: string]: any };

                /**
                 * Converts this Announce to JSON.
                 * @returns JSON object
                 */
                toJSON(): { [k: string]: any };

                /**
                 * Gets the type url for Announce
                 * @param [prefix] Custom type url prefix, defaults to `"type.googleapis.com"`
                 * @returns The type url
                 */
                static getTypeUrl(prefix?: string): string;
            }

            namespace Announce {

                /** Properties of an Announce. */
                interface $Properties {

                    /** The item. Required. */
                    key?: (ectp.v1.ItemKey.$Properties|null|undefined);

                    /** Unknown fields preserved while decoding when enabled */
                    $unknowns?: Uint8Array[];
                }

                /** Shape of an Announce. */
                type $Shape = ectp.conformance.v1.Announce.$Properties;
            }

            /**
             * Properties of an AnnounceResult.
             * @deprecated Use ectp.conformance.v1.AnnounceResult.$Properties instead.
             */
            interface IAnnounceResult extends ectp.conformance.v1.AnnounceResult.$Properties {
            }

            /** Answer to Announce. */
            class AnnounceResult {

                /**
                 * Constructs a new AnnounceResult.
                 * @param [properties] Properties to set
                 */
                constructor(properties?: ectp.conformance.v1.AnnounceResult.$Properties);

                /** Unknown fields preserved while decoding when enabled */
                $unknowns?: Uint8Array[];

                /**
                 * The announcement. Absent: the item is not held, or the testee was shut
                 * down. An item not yet ready is announced too (a ReadRequest for it is
                 * answered NOT_READY [P1]).
                 */
                announcement?: (ectp.v1.Announcement.$Properties|null|undefined);

                /**
                 * Creates a new AnnounceResult instance using the specified properties.
                 * @param [properties] Properties to set
                 * @returns AnnounceResult instance
                 */
                static create(properties: ectp.conformance.v1.AnnounceResult.$Shape): ectp.conformance.v1.AnnounceResult & ectp.conformance.v1.AnnounceResult.$Shape;
                static create(properties?: ectp.conformance.v1.AnnounceResult.$Properties): ectp.conformance.v1.AnnounceResult;

                /**
                 * Encodes the specified AnnounceResult message. Does not implicitly {@link ectp.conformance.v1.AnnounceResult.verify|verify} messages.
                 * @param message AnnounceResult message or plain object to encode
                 * @param [writer] Writer to encode to
                 * @returns Writer
                 */
                static encode(message: ectp.conformance.v1.AnnounceResult.$Properties, writer?: $protobuf.Writer): $protobuf.Writer;

                /**
                 * Encodes the specified AnnounceResult message, length delimited. Does not implicitly {@link ectp.conformance.v1.AnnounceResult.verify|verify} messages.
                 * @param message AnnounceResult message or plain object to encode
                 * @param [writer] Writer to encode to
                 * @returns Writer
                 */
                static encodeDelimited(message: ectp.conformance.v1.AnnounceResult.$Properties, writer?: $protobuf.Writer): $protobuf.Writer;

                /**
                 * Decodes an AnnounceResult message from the specified reader or buffer.
                 * @param reader Reader or buffer to decode from
                 * @param [length] Message length if known beforehand
                 * @returns {ectp.conformance.v1.AnnounceResult & ectp.conformance.v1.AnnounceResult.$Shape} AnnounceResult
                 * @throws {Error} If the payload is not a reader or valid buffer
                 * @throws {$protobuf.util.ProtocolError} If required fields are missing
                 */
                static decode(reader: ($protobuf.Reader|Uint8Array), length?: number): ectp.conformance.v1.AnnounceResult & ectp.conformance.v1.AnnounceResult.$Shape;

                /**
                 * Decodes an AnnounceResult message from the specified reader or buffer, length delimited.
                 * @param reader Reader or buffer to decode from
                 * @returns {ectp.conformance.v1.AnnounceResult & ectp.conformance.v1.AnnounceResult.$Shape} AnnounceResult
                 * @throws {Error} If the payload is not a reader or valid buffer
                 * @throws {$protobuf.util.ProtocolError} If required fields are missing
                 */
                static decodeDelimited(reader: ($protobuf.Reader|Uint8Array)): ectp.conformance.v1.AnnounceResult & ectp.conformance.v1.AnnounceResult.$Shape;

                /**
                 * Verifies an AnnounceResult message.
                 * @param message Plain object to verify
                 * @returns `null` if valid, otherwise the reason why it is not
                 */
                static verify(message: { [k: string]: any }): (string|null);

                /**
                 * Creates an AnnounceResult message from a plain object. Also converts values to their respective internal types.
                 * @param object Plain object
                 * @returns AnnounceResult
                 */
                static fromObject(object: { [k: string]: any }): ectp.conformance.v1.AnnounceResult;

                /**
                 * Creates a plain object from an AnnounceResult message. Also converts values to other types if specified.
                 * @param message AnnounceResult
                 * @param [options] Conversion options
                 * @returns Plain object
                 */
                static toObject(message: ectp.conformance.v1.AnnounceResult, options?: $protobuf.IConversionOptions): { [k: string]: any };

                /**
                 * Converts this AnnounceResult to JSON.
                 * @returns JSON object
                 */
                toJSON(): { [k: string]: any };

                /**
                 * Gets the type url for AnnounceResult
                 * @param [prefix] Custom type url prefix, defaults to `"type.googleapis.com"`
                 * @returns The type url
                 */
                static getTypeUrl(prefix?: string): string;
            }

            namespace AnnounceResult {

                /** Properties of an AnnounceResult. */
                interface $Properties {

                    /**
                     * The announcement. Absent: the item is not held, or the testee was shut
                     * down. An item not yet ready is announced too (a ReadRequest for it is
                     * answered NOT_READY [P1]).
                     */
                    announcement?: (ectp.v1.Announcement.$Properties|null|undefined);

                    /** Unknown fields preserved while decoding when enabled */
                    $unknowns?: Uint8Array[];
                }

                /** Shape of an AnnounceResult. */
                type $Shape = ectp.conformance.v1.AnnounceResult.$Properties;
            }

            /**
             * Properties of a Shutdown.
             * @deprecated Use ectp.conformance.v1.Shutdown.$Properties instead.
             */
            interface IShutdown extends ectp.conformance.v1.Shutdown.$Properties {
            }

            /**
             * Begin shutting down [P7]: release all pins, reject new requests with
             * SHUTTING_DOWN, publish Cleared(SHUTDOWN). Answered with Ok.
             */
            class Shutdown {

                /**
                 * Constructs a new Shutdown.
                 * @param [properties] Properties to set
                 */
                constructor(properties?: ectp.conformance.v1.Shutdown.$Properties);

                /** Unknown fields preserved while decoding when enabled */
                $unknowns?: Uint8Array[];

                /**
                 * Creates a new Shutdown instance using the specified properties.
                 * @param [properties] Properties to set
                 * @returns Shutdown instance
                 */
                static create(properties: ectp.conformance.v1.Shutdown.$Shape): ectp.conformance.v1.Shutdown & ectp.conformance.v1.Shutdown.$Shape;
                static create(properties?: ectp.conformance.v1.Shutdown.$Properties): ectp.conformance.v1.Shutdown;

                /**
                 * Encodes the specified Shutdown message. Does not implicitly {@link ectp.conformance.v1.Shutdown.verify|verify} messages.
                 * @param message Shutdown message or plain object to encode
                 * @param [writer] Writer to encode to
                 * @returns Writer
                 */
                static encode(message: ectp.conformance.v1.Shutdown.$Properties, writer?: $protobuf.Writer): $protobuf.Writer;

                /**
                 * Encodes the specified Shutdown message, length delimited. Does not implicitly {@link ectp.conformance.v1.Shutdown.verify|verify} messages.
                 * @param message Shutdown message or plain object to encode
                 * @param [writer] Writer to encode to
                 * @returns Writer
                 */
                static encodeDelimited(message: ectp.conformance.v1.Shutdown.$Properties, writer?: $protobuf.Writer): $protobuf.Writer;

                /**
                 * Decodes a Shutdown message from the specified reader or buffer.
                 * @param reader Reader or buffer to decode from
                 * @param [length] Message length if known beforehand
                 * @returns {ectp.conformance.v1.Shutdown & ectp.conformance.v1.Shutdown.$Shape} Shutdown
                 * @throws {Error} If the payload is not a reader or valid buffer
                 * @throws {$protobuf.util.ProtocolError} If required fields are missing
                 */
                static decode(reader: ($protobuf.Reader|Uint8Array), length?: number): ectp.conformance.v1.Shutdown & ectp.conformance.v1.Shutdown.$Shape;

                /**
                 * Decodes a Shutdown message from the specified reader or buffer, length delimited.
                 * @param reader Reader or buffer to decode from
                 * @returns {ectp.conformance.v1.Shutdown & ectp.conformance.v1.Shutdown.$Shape} Shutdown
                 * @throws {Error} If the payload is not a reader or valid buffer
                 * @throws {$protobuf.util.ProtocolError} If required fields are missing
                 */
                static decodeDelimited(reader: ($protobuf.Reader|Uint8Array)): ectp.conformance.v1.Shutdown & ectp.conformance.v1.Shutdown.$Shape;

                /**
                 * Verifies a Shutdown message.
                 * @param message Plain object to verify
                 * @returns `null` if valid, otherwise the reason why it is not
                 */
                static verify(message: { [k: string]: any }): (string|null);

                /**
                 * Creates a Shutdown message from a plain object. Also converts values to their respective internal types.
                 * @param object Plain object
                 * @returns Shutdown
                 */
                static fromObject(object: { [k: string]: any }): ectp.conformance.v1.Shutdown;

                /**
                 * Creates a plain object from a Shutdown message. Also converts values to other types if specified.
                 * @param message Shutdown
                 * @param [options] Conversion options
                 * @returns Plain object
                 */
                static toObject(message: ectp.conformance.v1.Shutdown, options?: $protobuf.IConversionOptions): { [k: string]: any };

                /**
                 * Converts this Shutdown to JSON.
                 * @returns JSON object
                 */
                toJSON(): { [k: string]: any };

                /**
                 * Gets the type url for Shutdown
                 * @param [prefix] Custom type url prefix, defaults to `"type.googleapis.com"`
                 * @returns The type url
                 */
                static getTypeUrl(prefix?: string): string;
            }

            namespace Shutdown {

                /** Properties of a Shutdown. */
                interface $Properties {

                    /** Unknown fields preserved while decoding when enabled */
                    $unknowns?: Uint8Array[];
                }

                /** Shape of a Shutdown. */
                type $Shape = ectp.conformance.v1.Shutdown.$Properties;
            }

            /**
             * Properties of a ReadMemory.
             * @deprecated Use ectp.conformance.v1.ReadMemory.$Properties instead.
             */
            interface IReadMemory extends ectp.conformance.v1.ReadMemory.$Properties {
            }

            /**
             * Read bytes of the producer's registered memory at a location the
             * producer handed out (ItemDescriptor.location), as a peer's one-sided read
             * would. The runner uses it to play the transport between two testees.
             * Answered with ReadMemoryResult, or Error when the location is not one
             * this instance handed out or its item has left the store (evicted,
             * discarded or cleared: deregistered memory).
             */
            class ReadMemory {

                /**
                 * Constructs a new ReadMemory.
                 * @param [properties] Properties to set
                 */
                constructor(properties?: ectp.conformance.v1.ReadMemory.$Properties);

                /** Unknown fields preserved while decoding when enabled */
                $unknowns?: Uint8Array[];

                /** The source location (from a grant's descriptor). */
                location: Uint8Array;

                /** Number of bytes to read from the start of the location. */
                length: number;

                /**
                 * Creates a new ReadMemory instance using the specified properties.
                 * @param [properties] Properties to set
                 * @returns ReadMemory instance
                 */
                static create(properties: ectp.conformance.v1.ReadMemory.$Shape): ectp.conformance.v1.ReadMemory & ectp.conformance.v1.ReadMemory.$Shape;
                static create(properties?: ectp.conformance.v1.ReadMemory.$Properties): ectp.conformance.v1.ReadMemory;

                /**
                 * Encodes the specified ReadMemory message. Does not implicitly {@link ectp.conformance.v1.ReadMemory.verify|verify} messages.
                 * @param message ReadMemory message or plain object to encode
                 * @param [writer] Writer to encode to
                 * @returns Writer
                 */
                static encode(message: ectp.conformance.v1.ReadMemory.$Properties, writer?: $protobuf.Writer): $protobuf.Writer;

                /**
                 * Encodes the specified ReadMemory message, length delimited. Does not implicitly {@link ectp.conformance.v1.ReadMemory.verify|verify} messages.
                 * @param message ReadMemory message or plain object to encode
                 * @param [writer] Writer to encode to
                 * @returns Writer
                 */
                static encodeDelimited(message: ectp.conformance.v1.ReadMemory.$Properties, writer?: $protobuf.Writer): $protobuf.Writer;

                /**
                 * Decodes a ReadMemory message from the specified reader or buffer.
                 * @param reader Reader or buffer to decode from
                 * @param [length] Message length if known beforehand
                 * @returns {ectp.conformance.v1.ReadMemory & ectp.conformance.v1.ReadMemory.$Shape} ReadMemory
                 * @throws {Error} If the payload is not a reader or valid buffer
                 * @throws {$protobuf.util.ProtocolError} If required fields are missing
                 */
                static decode(reader: ($protobuf.Reader|Uint8Array), length?: number): ectp.conformance.v1.ReadMemory & ectp.conformance.v1.ReadMemory.$Shape;

                /**
                 * Decodes a ReadMemory message from the specified reader or buffer, length delimited.
                 * @param reader Reader or buffer to decode from
                 * @returns {ectp.conformance.v1.ReadMemory & ectp.conformance.v1.ReadMemory.$Shape} ReadMemory
                 * @throws {Error} If the payload is not a reader or valid buffer
                 * @throws {$protobuf.util.ProtocolError} If required fields are missing
                 */
                static decodeDelimited(reader: ($protobuf.Reader|Uint8Array)): ectp.conformance.v1.ReadMemory & ectp.conformance.v1.ReadMemory.$Shape;

                /**
                 * Verifies a ReadMemory message.
                 * @param message Plain object to verify
                 * @returns `null` if valid, otherwise the reason why it is not
                 */
                static verify(message: { [k: string]: any }): (string|null);

                /**
                 * Creates a ReadMemory message from a plain object. Also converts values to their respective internal types.
                 * @param object Plain object
                 * @returns ReadMemory
                 */
                static fromObject(object: { [k: string]: any }): ectp.conformance.v1.ReadMemory;

                /**
                 * Creates a plain object from a ReadMemory message. Also converts values to other types if specified.
                 * @param message ReadMemory
                 * @param [options] Conversion options
                 * @returns Plain object
                 */
                static toObject(message: ectp.conformance.v1.ReadMemory, options?: $protobuf.IConversionOptions): { [k: string]: any };

                /**
                 * Converts this ReadMemory to JSON.
                 * @returns JSON object
                 */
                toJSON(): { [k: string]: any };

                /**
                 * Gets the type url for ReadMemory
                 * @param [prefix] Custom type url prefix, defaults to `"type.googleapis.com"`
                 * @returns The type url
                 */
                static getTypeUrl(prefix?: string): string;
            }

            namespace ReadMemory {

                /** Properties of a ReadMemory. */
                interface $Properties {

                    /** The source location (from a grant's descriptor). */
                    location?: (Uint8Array|null|undefined);

                    /** Number of bytes to read from the start of the location. */
                    length?: (number|null|undefined);

                    /** Unknown fields preserved while decoding when enabled */
                    $unknowns?: Uint8Array[];
                }

                /** Shape of a ReadMemory. */
                type $Shape = ectp.conformance.v1.ReadMemory.$Properties;
            }

            /**
             * Properties of a ReadMemoryResult.
             * @deprecated Use ectp.conformance.v1.ReadMemoryResult.$Properties instead.
             */
            interface IReadMemoryResult extends ectp.conformance.v1.ReadMemoryResult.$Properties {
            }

            /** Answer to ReadMemory. */
            class ReadMemoryResult {

                /**
                 * Constructs a new ReadMemoryResult.
                 * @param [properties] Properties to set
                 */
                constructor(properties?: ectp.conformance.v1.ReadMemoryResult.$Properties);

                /** Unknown fields preserved while decoding when enabled */
                $unknowns?: Uint8Array[];

                /**
                 * The bytes currently in that memory, `length` of them from the
                 * location's start.
                 */
                data: Uint8Array;

                /**
                 * Creates a new ReadMemoryResult instance using the specified properties.
                 * @param [properties] Properties to set
                 * @returns ReadMemoryResult instance
                 */
                static create(properties: ectp.conformance.v1.ReadMemoryResult.$Shape): ectp.conformance.v1.ReadMemoryResult & ectp.conformance.v1.ReadMemoryResult.$Shape;
                static create(properties?: ectp.conformance.v1.ReadMemoryResult.$Properties): ectp.conformance.v1.ReadMemoryResult;

                /**
                 * Encodes the specified ReadMemoryResult message. Does not implicitly {@link ectp.conformance.v1.ReadMemoryResult.verify|verify} messages.
                 * @param message ReadMemoryResult message or plain object to encode
                 * @param [writer] Writer to encode to
                 * @returns Writer
                 */
                static encode(message: ectp.conformance.v1.ReadMemoryResult.$Properties, writer?: $protobuf.Writer): $protobuf.Writer;

                /**
                 * Encodes the specified ReadMemoryResult message, length delimited. Does not implicitly {@link ectp.conformance.v1.ReadMemoryResult.verify|verify} messages.
                 * @param message ReadMemoryResult message or plain object to encode
                 * @param [writer] Writer to encode to
                 * @returns Writer
                 */
                static encodeDelimited(message: ectp.conformance.v1.ReadMemoryResult.$Properties, writer?: $protobuf.Writer): $protobuf.Writer;

                /**
                 * Decodes a ReadMemoryResult message from the specified reader or buffer.
                 * @param reader Reader or buffer to decode from
                 * @param [length] Message length if known beforehand
                 * @returns {ectp.conformance.v1.ReadMemoryResult & ectp.conformance.v1.ReadMemoryResult.$Shape} ReadMemoryResult
                 * @throws {Error} If the payload is not a reader or valid buffer
                 * @throws {$protobuf.util.ProtocolError} If required fields are missing
                 */
                static decode(reader: ($protobuf.Reader|Uint8Array), length?: number): ectp.conformance.v1.ReadMemoryResult & ectp.conformance.v1.ReadMemoryResult.$Shape;

                /**
                 * Decodes a ReadMemoryResult message from the specified reader or buffer, length delimited.
                 * @param reader Reader or buffer to decode from
                 * @returns {ectp.conformance.v1.ReadMemoryResult & ectp.conformance.v1.ReadMemoryResult.$Shape} ReadMemoryResult
                 * @throws {Error} If the payload is not a reader or valid buffer
                 * @throws {$protobuf.util.ProtocolError} If required fields are missing
                 */
                static decodeDelimited(reader: ($protobuf.Reader|Uint8Array)): ectp.conformance.v1.ReadMemoryResult & ectp.conformance.v1.ReadMemoryResult.$Shape;

                /**
                 * Verifies a ReadMemoryResult message.
                 * @param message Plain object to verify
                 * @returns `null` if valid, otherwise the reason why it is not
                 */
                static verify(message: { [k: string]: any }): (string|null);

                /**
                 * Creates a ReadMemoryResult message from a plain object. Also converts values to their respective internal types.
                 * @param object Plain object
                 * @returns ReadMemoryResult
                 */
                static fromObject(object: { [k: string]: any }): ectp.conformance.v1.ReadMemoryResult;

                /**
                 * Creates a plain object from a ReadMemoryResult message. Also converts values to other types if specified.
                 * @param message ReadMemoryResult
                 * @param [options] Conversion options
                 * @returns Plain object
                 */
                static toObject(message: ectp.conformance.v1.ReadMemoryResult, options?: $protobuf.IConversionOptions): { [k: string]: any };

                /**
                 * Converts this ReadMemoryResult to JSON.
                 * @returns JSON object
                 */
                toJSON(): { [k: string]: any };

                /**
                 * Gets the type url for ReadMemoryResult
                 * @param [prefix] Custom type url prefix, defaults to `"type.googleapis.com"`
                 * @returns The type url
                 */
                static getTypeUrl(prefix?: string): string;
            }

            namespace ReadMemoryResult {

                /** Properties of a ReadMemoryResult. */
                interface $Properties {

                    /**
                     * The bytes currently in that memory, `length` of them from the
                     * location's start.
                     */
                    data?: (Uint8Array|null|undefined);

                    /** Unknown fields preserved while decoding when enabled */
                    $unknowns?: Uint8Array[];
                }

                /** Shape of a ReadMemoryResult. */
                type $Shape = ectp.conformance.v1.ReadMemoryResult.$Properties;
            }

            /**
             * Properties of a DeliverMessage.
             * @deprecated Use ectp.conformance.v1.DeliverMessage.$Properties instead.
             */
            interface IDeliverMessage extends ectp.conformance.v1.DeliverMessage.$Properties {
            }

            /**
             * A control message arrived from a peer. Answered with Ok; the testee MUST
             * NOT answer Error for anything a peer sends [I1].
             */
            class DeliverMessage {

                /**
                 * Constructs a new DeliverMessage.
                 * @param [properties] Properties to set
                 */
                constructor(properties?: ectp.conformance.v1.DeliverMessage.$Properties);

                /** Unknown fields preserved while decoding when enabled */
                $unknowns?: Uint8Array[];

                /** The sending peer's id, as the transport knows it. */
                from: string;

                /** The message. Ignored when `raw` is set. */
                envelope?: (ectp.v1.Envelope.$Properties|null|undefined);

                /**
                 * Optional feature "raw-messages": the exact bytes received (possibly
                 * malformed, possibly with unknown fields [V1][V2]). The testee hands
                 * them to the implementation's decoder unchanged. Empty: use `envelope`.
                 */
                raw: Uint8Array;

                /**
                 * Creates a new DeliverMessage instance using the specified properties.
                 * @param [properties] Properties to set
                 * @returns DeliverMessage instance
                 */
                static create(properties: ectp.conformance.v1.DeliverMessage.$Shape): ectp.conformance.v1.DeliverMessage & ectp.conformance.v1.DeliverMessage.$Shape;
                static create(properties?: ectp.conformance.v1.DeliverMessage.$Properties): ectp.conformance.v1.DeliverMessage;

                /**
                 * Encodes the specified DeliverMessage message. Does not implicitly {@link ectp.conformance.v1.DeliverMessage.verify|verify} messages.
                 * @param message DeliverMessage message or plain object to encode
                 * @param [writer] Writer to encode to
                 * @returns Writer
                 */
                static encode(message: ectp.conformance.v1.DeliverMessage.$Properties, writer?: $protobuf.Writer): $protobuf.Writer;

                /**
                 * Encodes the specified DeliverMessage message, length delimited. Does not implicitly {@link ectp.conformance.v1.DeliverMessage.verify|verify} messages.
                 * @param message DeliverMessage message or plain object to encode
                 * @param [writer] Writer to encode to
                 * @returns Writer
                 */
                static encodeDelimited(message: ectp.conformance.v1.DeliverMessage.$Properties, writer?: $protobuf.Writer): $protobuf.Writer;

                /**
                 * Decodes a DeliverMessage message from the specified reader or buffer.
                 * @param reader Reader or buffer to decode from
                 * @param [length] Message length if known beforehand
                 * @returns {ectp.conformance.v1.DeliverMessage & ectp.conformance.v1.DeliverMessage.$Shape} DeliverMessage
                 * @throws {Error} If the payload is not a reader or valid buffer
                 * @throws {$protobuf.util.ProtocolError} If required fields are missing
                 */
                static decode(reader: ($protobuf.Reader|Uint8Array), length?: number): ectp.conformance.v1.DeliverMessage & ectp.conformance.v1.DeliverMessage.$Shape;

                /**
                 * Decodes a DeliverMessage message from the specified reader or buffer, length delimited.
                 * @param reader Reader or buffer to decode from
                 * @returns {ectp.conformance.v1.DeliverMessage & ectp.conformance.v1.DeliverMessage.$Shape} DeliverMessage
                 * @throws {Error} If the payload is not a reader or valid buffer
                 * @throws {$protobuf.util.ProtocolError} If required fields are missing
                 */
                static decodeDelimited(reader: ($protobuf.Reader|Uint8Array)): ectp.conformance.v1.DeliverMessage & ectp.conformance.v1.DeliverMessage.$Shape;

                /**
                 * Verifies a DeliverMessage message.
                 * @param message Plain object to verify
                 * @returns `null` if valid, otherwise the reason why it is not
                 */
                static verify(message: { [k: string]: any }): (string|null);

                /**
                 * Creates a DeliverMessage message from a plain object. Also converts values to their respective internal types.
                 * @param object Plain object
                 * @returns DeliverMessage
                 */
                static fromObject(object: { [k: string]: any }): ectp.conformance.v1.DeliverMessage;

                /**
                 * Creates a plain object from a DeliverMessage message. Also converts values to other types if specified.
                 * @param message DeliverMessage
                 * @param [options] Conversion options
                 * @returns Plain object
                 */
                static toObject(message: ectp.conformance.v1.DeliverMessage, options?: $protobuf.IConversionOptions): { [k: string]: any };

                /**
                 * Converts this DeliverMessage to JSON.
                 * @returns JSON object
                 */
                toJSON(): { [k: string]: any };

                /**
                 * Gets the type url for DeliverMessage
                 * @param [prefix] Custom type url prefix, defaults to `"type.googleapis.com"`
                 * @returns The type url
                 */
                static getTypeUrl(prefix?: string): string;
            }

            namespace DeliverMessage {

                /** Properties of a DeliverMessage. */
                interface $Properties {

                    /** The sending peer's id, as the transport knows it. */
                    from?: (string|null|undefined);

                    /** The message. Ignored when `raw` is set. */
                    envelope?: (ectp.v1.Envelope.$Properties|null|undefined);

                    /**
                     * Optional feature "raw-messages": the exact bytes received (possibly
                     * malformed, possibly with unknown fields [V1][V2]). The testee hands
                     * them to the implementation's decoder unchanged. Empty: use `envelope`.
                     */
                    raw?: (Uint8Array|null|undefined);

                    /** Unknown fields preserved while decoding when enabled */
                    $unknowns?: Uint8Array[];
                }

                /** Shape of a DeliverMessage. */
                type $Shape = {
                  /** `from`, as documented on this message's `$Properties`. */
                  from?: string|null;
                  /** `envelope`, as documented on this message's `$Properties`. */
                  envelope?: ectp.v1.Envelope.$Shape|null;
                  /** `raw`, as documented on this message's `$Properties`. */
                  raw?: Uint8Array|null;
                  /** `$unknowns`, as documented on this message's `$Properties`. */
                  $unknowns?: Uint8Array[];
                };
            }

            /**
             * Properties of a PeerUnreachable.
             * @deprecated Use ectp.conformance.v1.PeerUnreachable.$Properties instead.
             */
            interface IPeerUnreachable extends ectp.conformance.v1.PeerUnreachable.$Properties {
            }

            /**
             * The transport found a peer unreachable (a send or connect failed).
             * Answered with Ok.
             */
            class PeerUnreachable {

                /**
                 * Constructs a new PeerUnreachable.
                 * @param [properties] Properties to set
                 */
                constructor(properties?: ectp.conformance.v1.PeerUnreachable.$Properties);

                /** Unknown fields preserved while decoding when enabled */
                $unknowns?: Uint8Array[];

                /** Id of the peer the send or connect failed for. Required. */
                peerId: string;

                /**
                 * Creates a new PeerUnreachable instance using the specified properties.
                 * @param [properties] Properties to set
                 * @returns PeerUnreachable instance
                 */
                static create(properties: ectp.conformance.v1.PeerUnreachable.$Shape): ectp.conformance.v1.PeerUnreachable & ectp.conformance.v1.PeerUnreachable.$Shape;
                static create(properties?: ectp.conformance.v1.PeerUnreachable.$Properties): ectp.conformance.v1.PeerUnreachable;

                /**
                 * Encodes the specified PeerUnreachable message. Does not implicitly {@link ectp.conformance.v1.PeerUnreachable.verify|verify} messages.
                 * @param message PeerUnreachable message or plain object to encode
                 * @param [writer] Writer to encode to
                 * @returns Writer
                 */
                static encode(message: ectp.conformance.v1.PeerUnreachable.$Properties, writer?: $protobuf.Writer): $protobuf.Writer;

                /**
                 * Encodes the specified PeerUnreachable message, length delimited. Does not implicitly {@link ectp.conformance.v1.PeerUnreachable.verify|verify} messages.
                 * @param message PeerUnreachable message or plain object to encode
                 * @param [writer] Writer to encode to
                 * @returns Writer
                 */
                static encodeDelimited(message: ectp.conformance.v1.PeerUnreachable.$Properties, writer?: $protobuf.Writer): $protobuf.Writer;

                /**
                 * Decodes a PeerUnreachable message from the specified reader or buffer.
                 * @param reader Reader or buffer to decode from
                 * @param [length] Message length if known beforehand
                 * @returns {ectp.conformance.v1.PeerUnreachable & ectp.conformance.v1.PeerUnreachable.$Shape} PeerUnreachable
                 * @throws {Error} If the payload is not a reader or valid buffer
                 * @throws {$protobuf.util.ProtocolError} If required fields are missing
                 */
                static decode(reader: ($protobuf.Reader|Uint8Array), length?: number): ectp.conformance.v1.PeerUnreachable & ectp.conformance.v1.PeerUnreachable.$Shape;

                /**
                 * Decodes a PeerUnreachable message from the specified reader or buffer, length delimited.
                 * @param reader Reader or buffer to decode from
                 * @returns {ectp.conformance.v1.PeerUnreachable & ectp.conformance.v1.PeerUnreachable.$Shape} PeerUnreachable
                 * @throws {Error} If the payload is not a reader or valid buffer
                 * @throws {$protobuf.util.ProtocolError} If required fields are missing
                 */
                static decodeDelimited(reader: ($protobuf.Reader|Uint8Array)): ectp.conformance.v1.PeerUnreachable & ectp.conformance.v1.PeerUnreachable.$Shape;

                /**
                 * Verifies a PeerUnreachable message.
                 * @param message Plain object to verify
                 * @returns `null` if valid, otherwise the reason why it is not
                 */
                static verify(message: { [k: string]: any }): (string|null);

                /**
                 * Creates a PeerUnreachable message from a plain object. Also converts values to their respective internal types.
                 * @param object Plain object
                 * @returns PeerUnreachable
                 */
                static fromObject(object: { [k: string]: any }): ectp.conformance.v1.PeerUnreachable;

                /**
                 * Creates a plain object from a PeerUnreachable message. Also converts values to other types if specified.
                 * @param message PeerUnreachable
                 * @param [options] Conversion options
                 * @returns Plain object
                 */
                static toObject(message: ectp.conformance.v1.PeerUnreachable, options?: $protobuf.IConversionOptions): { [k: string]: any };

                /**
                 * Converts this PeerUnreachable to JSON.
                 * @returns JSON object
                 */
                toJSON(): { [k: string]: any };

                /**
                 * Gets the type url for PeerUnreachable
                 * @param [prefix] Custom type url prefix, defaults to `"type.googleapis.com"`
                 * @returns The type url
                 */
                static getTypeUrl(prefix?: string): string;
            }

            namespace PeerUnreachable {

                /** Properties of a PeerUnreachable. */
                interface $Properties {

                    /** Id of the peer the send or connect failed for. Required. */
                    peerId?: (string|null|undefined);

                    /** Unknown fields preserved while decoding when enabled */
                    $unknowns?: Uint8Array[];
                }

                /** Shape of a PeerUnreachable. */
                type $Shape = ectp.conformance.v1.PeerUnreachable.$Properties;
            }

            /**
             * Properties of an AdvanceClock.
             * @deprecated Use ectp.conformance.v1.AdvanceClock.$Properties instead.
             */
            interface IAdvanceClock extends ectp.conformance.v1.AdvanceClock.$Properties {
            }

            /**
             * Time moved to now_ms; nothing else happened. Answered with Ok. Outputs
             * that became due are returned by the next Poll.
             */
            class AdvanceClock {

                /**
                 * Constructs a new AdvanceClock.
                 * @param [properties] Properties to set
                 */
                constructor(properties?: ectp.conformance.v1.AdvanceClock.$Properties);

                /** Unknown fields preserved while decoding when enabled */
                $unknowns?: Uint8Array[];

                /**
                 * Creates a new AdvanceClock instance using the specified properties.
                 * @param [properties] Properties to set
                 * @returns AdvanceClock instance
                 */
                static create(properties: ectp.conformance.v1.AdvanceClock.$Shape): ectp.conformance.v1.AdvanceClock & ectp.conformance.v1.AdvanceClock.$Shape;
                static create(properties?: ectp.conformance.v1.AdvanceClock.$Properties): ectp.conformance.v1.AdvanceClock;

                /**
                 * Encodes the specified AdvanceClock message. Does not implicitly {@link ectp.conformance.v1.AdvanceClock.verify|verify} messages.
                 * @param message AdvanceClock message or plain object to encode
                 * @param [writer] Writer to encode to
                 * @returns Writer
                 */
                static encode(message: ectp.conformance.v1.AdvanceClock.$Properties, writer?: $protobuf.Writer): $protobuf.Writer;

                /**
                 * Encodes the specified AdvanceClock message, length delimited. Does not implicitly {@link ectp.conformance.v1.AdvanceClock.verify|verify} messages.
                 * @param message AdvanceClock message or plain object to encode
                 * @param [writer] Writer to encode to
                 * @returns Writer
                 */
                static encodeDelimited(message: ectp.conformance.v1.AdvanceClock.$Properties, writer?: $protobuf.Writer): $protobuf.Writer;

                /**
                 * Decodes an AdvanceClock message from the specified reader or buffer.
                 * @param reader Reader or buffer to decode from
                 * @param [length] Message length if known beforehand
                 * @returns {ectp.conformance.v1.AdvanceClock & ectp.conformance.v1.AdvanceClock.$Shape} AdvanceClock
                 * @throws {Error} If the payload is not a reader or valid buffer
                 * @throws {$protobuf.util.ProtocolError} If required fields are missing
                 */
                static decode(reader: ($protobuf.Reader|Uint8Array), length?: number): ectp.conformance.v1.AdvanceClock & ectp.conformance.v1.AdvanceClock.$Shape;

                /**
                 * Decodes an AdvanceClock message from the specified reader or buffer, length delimited.
                 * @param reader Reader or buffer to decode from
                 * @returns {ectp.conformance.v1.AdvanceClock & ectp.conformance.v1.AdvanceClock.$Shape} AdvanceClock
                 * @throws {Error} If the payload is not a reader or valid buffer
                 * @throws {$protobuf.util.ProtocolError} If required fields are missing
                 */
                static decodeDelimited(reader: ($protobuf.Reader|Uint8Array)): ectp.conformance.v1.AdvanceClock & ectp.conformance.v1.AdvanceClock.$Shape;

                /**
                 * Verifies an AdvanceClock message.
                 * @param message Plain object to verify
                 * @returns `null` if valid, otherwise the reason why it is not
                 */
                static verify(message: { [k: string]: any }): (string|null);

                /**
                 * Creates an AdvanceClock message from a plain object. Also converts values to their respective internal types.
                 * @param object Plain object
                 * @returns AdvanceClock
                 */
                static fromObject(object: { [k: string]: any }): ectp.conformance.v1.AdvanceClock;

                /**
                 * Creates a plain object from an AdvanceClock message. Also converts values to other types if specified.
                 * @param message AdvanceClock
                 * @param [options] Conversion options
                 * @returns Plain object
                 */
                static toObject(message: ectp.conformance.v1.AdvanceClock, options?: $protobuf.IConversionOptions): { [k: string]: any };

                /**
                 * Converts this AdvanceClock to JSON.
                 * @returns JSON object
                 */
                toJSON(): { [k: string]: any };

                /**
                 * Gets the type url for AdvanceClock
                 * @param [prefix] Custom type url prefix, defaults to `"type.googleapis.com"`
                 * @returns The type url
                 */
                static getTypeUrl(prefix?: string): string;
            }

            namespace AdvanceClock {

                /** Properties of an AdvanceClock. */
                interface $Properties {

                    /** Unknown fields preserved while decoding when enabled */
                    $unknowns?: Uint8Array[];
                }

                /** Shape of an AdvanceClock. */
                type $Shape = ectp.conformance.v1.AdvanceClock.$Properties;
            }

            /**
             * Properties of a Poll.
             * @deprecated Use ectp.conformance.v1.Poll.$Properties instead.
             */
            interface IPoll extends ectp.conformance.v1.Poll.$Properties {
            }

            /** Collect every output due at now_ms (the implementation's poll(now)). */
            class Poll {

                /**
                 * Constructs a new Poll.
                 * @param [properties] Properties to set
                 */
                constructor(properties?: ectp.conformance.v1.Poll.$Properties);

                /** Unknown fields preserved while decoding when enabled */
                $unknowns?: Uint8Array[];

                /**
                 * Creates a new Poll instance using the specified properties.
                 * @param [properties] Properties to set
                 * @returns Poll instance
                 */
                static create(properties: ectp.conformance.v1.Poll.$Shape): ectp.conformance.v1.Poll & ectp.conformance.v1.Poll.$Shape;
                static create(properties?: ectp.conformance.v1.Poll.$Properties): ectp.conformance.v1.Poll;

                /**
                 * Encodes the specified Poll message. Does not implicitly {@link ectp.conformance.v1.Poll.verify|verify} messages.
                 * @param message Poll message or plain object to encode
                 * @param [writer] Writer to encode to
                 * @returns Writer
                 */
                static encode(message: ectp.conformance.v1.Poll.$Properties, writer?: $protobuf.Writer): $protobuf.Writer;

                /**
                 * Encodes the specified Poll message, length delimited. Does not implicitly {@link ectp.conformance.v1.Poll.verify|verify} messages.
                 * @param message Poll message or plain object to encode
                 * @param [writer] Writer to encode to
                 * @returns Writer
                 */
                static encodeDelimited(message: ectp.conformance.v1.Poll.$Properties, writer?: $protobuf.Writer): $protobuf.Writer;

                /**
                 * Decodes a Poll message from the specified reader or buffer.
                 * @param reader Reader or buffer to decode from
                 * @param [length] Message length if known beforehand
                 * @returns {ectp.conformance.v1.Poll & ectp.conformance.v1.Poll.$Shape} Poll
                 * @throws {Error} If the payload is not a reader or valid buffer
                 * @throws {$protobuf.util.ProtocolError} If required fields are missing
                 */
                static decode(reader: ($protobuf.Reader|Uint8Array), length?: number): ectp.conformance.v1.Poll & ectp.conformance.v1.Poll.$Shape;

                /**
                 * Decodes a Poll message from the specified reader or buffer, length delimited.
                 * @param reader Reader or buffer to decode from
                 * @returns {ectp.conformance.v1.Poll & ectp.conformance.v1.Poll.$Shape} Poll
                 * @throws {Error} If the payload is not a reader or valid buffer
                 * @throws {$protobuf.util.ProtocolError} If required fields are missing
                 */
                static decodeDelimited(reader: ($protobuf.Reader|Uint8Array)): ectp.conformance.v1.Poll & ectp.conformance.v1.Poll.$Shape;

                /**
                 * Verifies a Poll message.
                 * @param message Plain object to verify
                 * @returns `null` if valid, otherwise the reason why it is not
                 */
                static verify(message: { [k: string]: any }): (string|null);

                /**
                 * Creates a Poll message from a plain object. Also converts values to their respective internal types.
                 * @param object Plain object
                 * @returns Poll
                 */
                static fromObject(object: { [k: string]: any }): ectp.conformance.v1.Poll;

                /**
                 * Creates a plain object from a Poll message. Also converts values to other types if specified.
                 * @param message Poll
                 * @param [options] Conversion options
                 * @returns Plain object
                 */
                static toObject(message: ectp.conformance.v1.Poll, options?: $protobuf.IConversionOptions): { [k: string]: any };

                /**
                 * Converts this Poll to JSON.
                 * @returns JSON object
                 */
                toJSON(): { [k: string]: any };

                /**
                 * Gets the type url for Poll
                 * @param [prefix] Custom type url prefix, defaults to `"type.googleapis.com"`
                 * @returns The type url
                 */
                static getTypeUrl(prefix?: string): string;
            }

            namespace Poll {

                /** Properties of a Poll. */
                interface $Properties {

                    /** Unknown fields preserved while decoding when enabled */
                    $unknowns?: Uint8Array[];
                }

                /** Shape of a Poll. */
                type $Shape = ectp.conformance.v1.Poll.$Properties;
            }

            /**
             * Properties of a PollResult.
             * @deprecated Use ectp.conformance.v1.PollResult.$Properties instead.
             */
            interface IPollResult extends ectp.conformance.v1.PollResult.$Properties {
            }

            /** Answer to Poll. */
            class PollResult {

                /**
                 * Constructs a new PollResult.
                 * @param [properties] Properties to set
                 */
                constructor(properties?: ectp.conformance.v1.PollResult.$Properties);

                /** Unknown fields preserved while decoding when enabled */
                $unknowns?: Uint8Array[];

                /** The outputs, in the order the implementation produced them. */
                outputs: ectp.conformance.v1.Output.$Properties[];

                /**
                 * When the runner should poll next at the latest (the implementation's
                 * nextDeadline()), in ms on the same clock. Absent: nothing is scheduled.
                 */
                nextDeadlineMs?: (number|null|undefined);

                /**
                 * Creates a new PollResult instance using the specified properties.
                 * @param [properties] Properties to set
                 * @returns PollResult instance
                 */
                static create(properties: ectp.conformance.v1.PollResult.$Shape): ectp.conformance.v1.PollResult & ectp.conformance.v1.PollResult.$Shape;
                static create(properties?: ectp.conformance.v1.PollResult.$Properties): ectp.conformance.v1.PollResult;

                /**
                 * Encodes the specified PollResult message. Does not implicitly {@link ectp.conformance.v1.PollResult.verify|verify} messages.
                 * @param message PollResult message or plain object to encode
                 * @param [writer] Writer to encode to
                 * @returns Writer
                 */
                static encode(message: ectp.conformance.v1.PollResult.$Properties, writer?: $protobuf.Writer): $protobuf.Writer;

                /**
                 * Encodes the specified PollResult message, length delimited. Does not implicitly {@link ectp.conformance.v1.PollResult.verify|verify} messages.
                 * @param message PollResult message or plain object to encode
                 * @param [writer] Writer to encode to
                 * @returns Writer
                 */
                static encodeDelimited(message: ectp.conformance.v1.PollResult.$Properties, writer?: $protobuf.Writer): $protobuf.Writer;

                /**
                 * Decodes a PollResult message from the specified reader or buffer.
                 * @param reader Reader or buffer to decode from
                 * @param [length] Message length if known beforehand
                 * @returns {ectp.conformance.v1.PollResult & ectp.conformance.v1.PollResult.$Shape} PollResult
                 * @throws {Error} If the payload is not a reader or valid buffer
                 * @throws {$protobuf.util.ProtocolError} If required fields are missing
                 */
                static decode(reader: ($protobuf.Reader|Uint8Array), length?: number): ectp.conformance.v1.PollResult & ectp.conformance.v1.PollResult.$Shape;

                /**
                 * Decodes a PollResult message from the specified reader or buffer, length delimited.
                 * @param reader Reader or buffer to decode from
                 * @returns {ectp.conformance.v1.PollResult & ectp.conformance.v1.PollResult.$Shape} PollResult
                 * @throws {Error} If the payload is not a reader or valid buffer
                 * @throws {$protobuf.util.ProtocolError} If required fields are missing
                 */
                static decodeDelimited(reader: ($protobuf.Reader|Uint8Array)): ectp.conformance.v1.PollResult & ectp.conformance.v1.PollResult.$Shape;

                /**
                 * Verifies a PollResult message.
                 * @param message Plain object to verify
                 * @returns `null` if valid, otherwise the reason why it is not
                 */
                static verify(message: { [k: string]: any }): (string|null);

                /**
                 * Creates a PollResult message from a plain object. Also converts values to their respective internal types.
                 * @param object Plain object
                 * @returns PollResult
                 */
                static fromObject(object: { [k: string]: any }): ectp.conformance.v1.PollResult;

                /**
                 * Creates a plain object from a PollResult message. Also converts values to other types if specified.
                 * @param message PollResult
                 * @param [options] Conversion options
                 * @returns Plain object
                 */
                static toObject(message: ectp.conformance.v1.PollResult, options?: $protobuf.IConversionOptions): { [k: string]: any };

                /**
                 * Converts this PollResult to JSON.
                 * @returns JSON object
                 */
                toJSON(): { [k: string]: any };

                /**
                 * Gets the type url for PollResult
                 * @param [prefix] Custom type url prefix, defaults to `"type.googleapis.com"`
                 * @returns The type url
                 */
                static getTypeUrl(prefix?: string): string;
            }

            namespace PollResult {

                /** Properties of a PollResult. */
                interface $Properties {

                    /** The outputs, in the order the implementation produced them. */
                    outputs?: (ectp.conformance.v1.Output.$Properties[]|null|undefined);

                    /**
                     * When the runner should poll next at the latest (the implementation's
                     * nextDeadline()), in ms on the same clock. Absent: nothing is scheduled.
                     */
                    nextDeadlineMs?: (number|null|undefined);

                    /** Unknown fields preserved while decoding when enabled */
                    $unknowns?: Uint8Array[];
                }

                /** Shape of a PollResult. */
                type $Shape = {
                  /** `outputs`, as documented on this message's `$Properties`. */
                  outputs?: ectp.conformance.v1.Output.$Shape[]|null;
                  /** `nextDeadlineMs`, as documented on this message's `$Properties`. */
                  nextDeadlineMs?: number|null;
                  /** `$unknowns`, as documented on this message's `$Properties`. */
                  $unknowns?: Uint8Array[];
                };
            }

            /**
             * Properties of an Output.
             * @deprecated Use ectp.conformance.v1.Output.$Properties instead.
             */
            interface IOutput extends ectp.conformance.v1.Output.$Properties {
            }

            /** One output of an implementation. */
            class Output {

                /**
                 * Constructs a new Output.
                 * @param [properties] Properties to set
                 */
                constructor(properties?: ectp.conformance.v1.Output.$Properties);

                /** Unknown fields preserved while decoding when enabled */
                $unknowns?: Uint8Array[];

                /** Send a control message. */
                send?: (ectp.conformance.v1.SendOutput.$Properties|null|undefined);

                /** Start a one-sided read. */
                startRead?: (ectp.conformance.v1.StartReadOutput.$Properties|null|undefined);

                /** Cancel a read started by an earlier StartReadOutput. */
                cancelRead?: (ectp.conformance.v1.CancelReadOutput.$Properties|null|undefined);

                /** Make a peer reachable. */
                connectPeer?: (ectp.conformance.v1.ConnectPeerOutput.$Properties|null|undefined);

                /** Forget a peer's metadata (it is gone or restarted). */
                disconnectPeer?: (ectp.conformance.v1.DisconnectPeerOutput.$Properties|null|undefined);

                /** An event batch published for in-process subscribers [E1]. */
                eventBatch?: (ectp.conformance.v1.EventBatchOutput.$Properties|null|undefined);

                /** What the implementation asks for. Exactly one is set. */
                kind?: ("send"|"startRead"|"cancelRead"|"connectPeer"|"disconnectPeer"|"eventBatch");

                /**
                 * Creates a new Output instance using the specified properties.
                 * @param [properties] Properties to set
                 * @returns Output instance
                 */
                static create(properties: ectp.conformance.v1.Output.$Shape): ectp.conformance.v1.Output & ectp.conformance.v1.Output.$Shape;
                static create(properties?: ectp.conformance.v1.Output.$Properties): ectp.conformance.v1.Output;

                /**
                 * Encodes the specified Output message. Does not implicitly {@link ectp.conformance.v1.Output.verify|verify} messages.
                 * @param message Output message or plain object to encode
                 * @param [writer] Writer to encode to
                 * @returns Writer
                 */
                static encode(message: ectp.conformance.v1.Output.$Properties, writer?: $protobuf.Writer): $protobuf.Writer;

                /**
                 * Encodes the specified Output message, length delimited. Does not implicitly {@link ectp.conformance.v1.Output.verify|verify} messages.
                 * @param message Output message or plain object to encode
                 * @param [writer] Writer to encode to
                 * @returns Writer
                 */
                static encodeDelimited(message: ectp.conformance.v1.Output.$Properties, writer?: $protobuf.Writer): $protobuf.Writer;

                /**
                 * Decodes an Output message from the specified reader or buffer.
                 * @param reader Reader or buffer to decode from
                 * @param [length] Message length if known beforehand
                 * @returns {ectp.conformance.v1.Output & ectp.conformance.v1.Output.$Shape} Output
                 * @throws {Error} If the payload is not a reader or valid buffer
                 * @throws {$protobuf.util.ProtocolError} If required fields are missing
                 */
                static decode(reader: ($protobuf.Reader|Uint8Array), length?: number): ectp.conformance.v1.Output & ectp.conformance.v1.Output.$Shape;

                /**
                 * Decodes an Output message from the specified reader or buffer, length delimited.
                 * @param reader Reader or buffer to decode from
                 * @returns {ectp.conformance.v1.Output & ectp.conformance.v1.Output.$Shape} Output
                 * @throws {Error} If the payload is not a reader or valid buffer
                 * @throws {$protobuf.util.ProtocolError} If required fields are missing
                 */
                static decodeDelimited(reader: ($protobuf.Reader|Uint8Array)): ectp.conformance.v1.Output & ectp.conformance.v1.Output.$Shape;

                /**
                 * Verifies an Output message.
                 * @param message Plain object to verify
                 * @returns `null` if valid, otherwise the reason why it is not
                 */
                static verify(message: { [k: string]: any }): (string|null);

                /**
                 * Creates an Output message from a plain object. Also converts values to their respective internal types.
                 * @param object Plain object
                 * @returns Output
                 */
                static fromObject(object: { [k: string]: any }): ectp.conformance.v1.Output;

                /**
                 * Creates a plain object from an Output message. Also converts values to other types if specified.
                 * @param message Output
                 * @param [options] Conversion options
                 * @returns Plain object
                 */
                static toObject(message: ectp.conformance.v1.Output, options?: $protobuf.IConversionOptions): { [k: string]: any };

                /**
                 * Converts this Output to JSON.
                 * @returns JSON object
                 */
                toJSON(): { [k: string]: any };

                /**
                 * Gets the type url for Output
                 * @param [prefix] Custom type url prefix, defaults to `"type.googleapis.com"`
                 * @returns The type url
                 */
                static getTypeUrl(prefix?: string): string;
            }

            namespace Output {

                /** Properties of an Output. */
                interface $Properties {

                    /** Send a control message. */
                    send?: (ectp.conformance.v1.SendOutput.$Properties|null|undefined);

                    /** Start a one-sided read. */
                    startRead?: (ectp.conformance.v1.StartReadOutput.$Properties|null|undefined);

                    /** Cancel a read started by an earlier StartReadOutput. */
                    cancelRead?: (ectp.conformance.v1.CancelReadOutput.$Properties|null|undefined);

                    /** Make a peer reachable. */
                    connectPeer?: (ectp.conformance.v1.ConnectPeerOutput.$Properties|null|undefined);

                    /** Forget a peer's metadata (it is gone or restarted). */
                    disconnectPeer?: (ectp.conformance.v1.DisconnectPeerOutput.$Properties|null|undefined);

                    /** An event batch published for in-process subscribers [E1]. */
                    eventBatch?: (ectp.conformance.v1.EventBatchOutput.$Properties|null|undefined);

                    /** What the implementation asks for. Exactly one is set. */
                    kind?: ("send"|"startRead"|"cancelRead"|"connectPeer"|"disconnectPeer"|"eventBatch");

                    /** Unknown fields preserved while decoding when enabled */
                    $unknowns?: Uint8Array[];
                }

                /** Narrowed shape of an Output. */
                type $Shape = {
                  /** `send`, as documented on this message's `$Properties`. */
                  send?: ectp.conformance.v1.SendOutput.$Shape|null;
                  /** `startRead`, as documented on this message's `$Properties`. */
                  startRead?: ectp.conformance.v1.StartReadOutput.$Shape|null;
                  /** `cancelRead`, as documented on this message's `$Properties`. */
                  cancelRead?: ectp.conformance.v1.CancelReadOutput.$Shape|null;
                  /** `connectPeer`, as documented on this message's `$Properties`. */
                  connectPeer?: ectp.conformance.v1.ConnectPeerOutput.$Shape|null;
                  /** `disconnectPeer`, as documented on this message's `$Properties`. */
                  disconnectPeer?: ectp.conformance.v1.DisconnectPeerOutput.$Shape|null;
                  /** `eventBatch`, as documented on this message's `$Properties`. */
                  eventBatch?: ectp.conformance.v1.EventBatchOutput.$Shape|null;
                  /** `$unknowns`, as documented on this message's `$Properties`. */
                  $unknowns?: Uint8Array[];
                } & (
                  ({
                    /** `kind`, as documented on this message's `$Properties`. */
                    kind?: undefined;
                    /** `send`, as documented on this message's `$Properties`. */
                    send?: null;
                    /** `startRead`, as documented on this message's `$Properties`. */
                    startRead?: null;
                    /** `cancelRead`, as documented on this message's `$Properties`. */
                    cancelRead?: null;
                    /** `connectPeer`, as documented on this message's `$Properties`. */
                    connectPeer?: null;
                    /** `disconnectPeer`, as documented on this message's `$Properties`. */
                    disconnectPeer?: null;
                    /** `eventBatch`, as documented on this message's `$Properties`. */
                    eventBatch?: null }|{
                    /** `kind`, as documented on this message's `$Properties`. */
                    kind?: "send";
                    /** `send`, as documented on this message's `$Properties`. */
                    send: ectp.conformance.v1.SendOutput.$Shape;
                    /** `startRead`, as documented on this message's `$Properties`. */
                    startRead?: null;
                    /** `cancelRead`, as documented on this message's `$Properties`. */
                    cancelRead?: null;
                    /** `connectPeer`, as documented on this message's `$Properties`. */
                    connectPeer?: null;
                    /** `disconnectPeer`, as documented on this message's `$Properties`. */
                    disconnectPeer?: null;
                    /** `eventBatch`, as documented on this message's `$Properties`. */
                    eventBatch?: null }|{
                    /** `kind`, as documented on this message's `$Properties`. */
                    kind?: "startRead";
                    /** `send`, as documented on this message's `$Properties`. */
                    send?: null;
                    /** `startRead`, as documented on this message's `$Properties`. */
                    startRead: ectp.conformance.v1.StartReadOutput.$Shape;
                    /** `cancelRead`, as documented on this message's `$Properties`. */
                    cancelRead?: null;
                    /** `connectPeer`, as documented on this message's `$Properties`. */
                    connectPeer?: null;
                    /** `disconnectPeer`, as documented on this message's `$Properties`. */
                    disconnectPeer?: null;
                    /** `eventBatch`, as documented on this message's `$Properties`. */
                    eventBatch?: null }|{
                    /** `kind`, as documented on this message's `$Properties`. */
                    kind?: "cancelRead";
                    /** `send`, as documented on this message's `$Properties`. */
                    send?: null;
                    /** `startRead`, as documented on this message's `$Properties`. */
                    startRead?: null;
                    /** `cancelRead`, as documented on this message's `$Properties`. */
                    cancelRead: ectp.conformance.v1.CancelReadOutput.$Shape;
                    /** `connectPeer`, as documented on this message's `$Properties`. */
                    connectPeer?: null;
                    /** `disconnectPeer`, as documented on this message's `$Properties`. */
                    disconnectPeer?: null;
                    /** `eventBatch`, as documented on this message's `$Properties`. */
                    eventBatch?: null }|{
                    /** `kind`, as documented on this message's `$Properties`. */
                    kind?: "connectPeer";
                    /** `send`, as documented on this message's `$Properties`. */
                    send?: null;
                    /** `startRead`, as documented on this message's `$Properties`. */
                    startRead?: null;
                    /** `cancelRead`, as documented on this message's `$Properties`. */
                    cancelRead?: null;
                    /** `connectPeer`, as documented on this message's `$Properties`. */
                    connectPeer: ectp.conformance.v1.ConnectPeerOutput.$Shape;
                    /** `disconnectPeer`, as documented on this message's `$Properties`. */
                    disconnectPeer?: null;
                    /** `eventBatch`, as documented on this message's `$Properties`. */
                    eventBatch?: null }|{
                    /** `kind`, as documented on this message's `$Properties`. */
                    kind?: "disconnectPeer";
                    /** `send`, as documented on this message's `$Properties`. */
                    send?: null;
                    /** `startRead`, as documented on this message's `$Properties`. */
                    startRead?: null;
                    /** `cancelRead`, as documented on this message's `$Properties`. */
                    cancelRead?: null;
                    /** `connectPeer`, as documented on this message's `$Properties`. */
                    connectPeer?: null;
                    /** `disconnectPeer`, as documented on this message's `$Properties`. */
                    disconnectPeer: ectp.conformance.v1.DisconnectPeerOutput.$Shape;
                    /** `eventBatch`, as documented on this message's `$Properties`. */
                    eventBatch?: null }|{
                    /** `kind`, as documented on this message's `$Properties`. */
                    kind?: "eventBatch";
                    /** `send`, as documented on this message's `$Properties`. */
                    send?: null;
                    /** `startRead`, as documented on this message's `$Properties`. */
                    startRead?: null;
                    /** `cancelRead`, as documented on this message's `$Properties`. */
                    cancelRead?: null;
                    /** `connectPeer`, as documented on this message's `$Properties`. */
                    connectPeer?: null;
                    /** `disconnectPeer`, as documented on this message's `$Properties`. */
                    disconnectPeer?: null;
                    /** `eventBatch`, as documented on this message's `$Properties`. */
                    eventBatch: ectp.conformance.v1.EventBatchOutput.$Shape })
                );
            }

            /**
             * Properties of a SendOutput.
             * @deprecated Use ectp.conformance.v1.SendOutput.$Properties instead.
             */
            interface ISendOutput extends ectp.conformance.v1.SendOutput.$Properties {
            }

            /** Send an envelope to a peer. */
            class SendOutput {

                /**
                 * Constructs a new SendOutput.
                 * @param [properties] Properties to set
                 */
                constructor(properties?: ectp.conformance.v1.SendOutput.$Properties);

                /** Unknown fields preserved while decoding when enabled */
                $unknowns?: Uint8Array[];

                /** Destination peer id. */
                to: string;

                /** The envelope, version/sender_id/sender_epoch filled in. */
                envelope?: (ectp.v1.Envelope.$Properties|null|undefined);

                /**
                 * Optional feature "raw-outputs": the bytes the implementation's own
                 * encoder makes of `envelope`, exactly as it puts them on a message
                 * transport (one serialized Envelope, no length prefix; SPEC.md section 5).
                 * The runner decodes them with the reference decoder, which applies
                 * section 5's limits, and checks that they carry `envelope`. Empty: not
                 * given (a testee claiming "raw-outputs" MUST give it, or raw_error, on
                 * every send).
                 */
                raw: Uint8Array;

                /**
                 * Optional feature "raw-outputs": why the implementation's encoder refused
                 * `envelope` (raw is then empty). An implementation sends nothing it cannot
                 * encode, so the runner fails the case with these words.
                 */
                rawError: string;

                /**
                 * Creates a new SendOutput instance using the specified properties.
                 * @param [properties] Properties to set
                 * @returns SendOutput instance
                 */
                static create(properties: ectp.conformance.v1.SendOutput.$Shape): ectp.conformance.v1.SendOutput & ectp.conformance.v1.SendOutput.$Shape;
                static create(properties?: ectp.conformance.v1.SendOutput.$Properties): ectp.conformance.v1.SendOutput;

                /**
                 * Encodes the specified SendOutput message. Does not implicitly {@link ectp.conformance.v1.SendOutput.verify|verify} messages.
                 * @param message SendOutput message or plain object to encode
                 * @param [writer] Writer to encode to
                 * @returns Writer
                 */
                static encode(message: ectp.conformance.v1.SendOutput.$Properties, writer?: $protobuf.Writer): $protobuf.Writer;

                /**
                 * Encodes the specified SendOutput message, length delimited. Does not implicitly {@link ectp.conformance.v1.SendOutput.verify|verify} messages.
                 * @param message SendOutput message or plain object to encode
                 * @param [writer] Writer to encode to
                 * @returns Writer
                 */
                static encodeDelimited(message: ectp.conformance.v1.SendOutput.$Properties, writer?: $protobuf.Writer): $protobuf.Writer;

                /**
                 * Decodes a SendOutput message from the specified reader or buffer.
                 * @param reader Reader or buffer to decode from
                 * @param [length] Message length if known beforehand
                 * @returns {ectp.conformance.v1.SendOutput & ectp.conformance.v1.SendOutput.$Shape} SendOutput
                 * @throws {Error} If the payload is not a reader or valid buffer
                 * @throws {$protobuf.util.ProtocolError} If required fields are missing
                 */
                static decode(reader: ($protobuf.Reader|Uint8Array), length?: number): ectp.conformance.v1.SendOutput & ectp.conformance.v1.SendOutput.$Shape;

                /**
                 * Decodes a SendOutput message from the specified reader or buffer, length delimited.
                 * @param reader Reader or buffer to decode from
                 * @returns {ectp.conformance.v1.SendOutput & ectp.conformance.v1.SendOutput.$Shape} SendOutput
                 * @throws {Error} If the payload is not a reader or valid buffer
                 * @throws {$protobuf.util.ProtocolError} If required fields are missing
                 */
                static decodeDelimited(reader: ($protobuf.Reader|Uint8Array)): ectp.conformance.v1.SendOutput & ectp.conformance.v1.SendOutput.$Shape;

                /**
                 * Verifies a SendOutput message.
                 * @param message Plain object to verify
                 * @returns `null` if valid, otherwise the reason why it is not
                 */
                static verify(message: { [k: string]: any }): (string|null);

                /**
                 * Creates a SendOutput message from a plain object. Also converts values to their respective internal types.
                 * @param object Plain object
                 * @returns SendOutput
                 */
                static fromObject(object: { [k: string]: any }): ectp.conformance.v1.SendOutput;

                /**
                 * Creates a plain object from a SendOutput message. Also converts values to other types if specified.
                 * @param message SendOutput
                 * @param [options] Conversion options
                 * @returns Plain object
                 */
                static toObject(message: ectp.conformance.v1.SendOutput, options?: $protobuf.IConversionOptions): { [k: string]: any };

                /**
                 * Converts this SendOutput to JSON.
                 * @returns JSON object
                 */
                toJSON(): { [k: string]: any };

                /**
                 * Gets the type url for SendOutput
                 * @param [prefix] Custom type url prefix, defaults to `"type.googleapis.com"`
                 * @returns The type url
                 */
                static getTypeUrl(prefix?: string): string;
            }

            namespace SendOutput {

                /** Properties of a SendOutput. */
                interface $Properties {

                    /** Destination peer id. */
                    to?: (string|null|undefined);

                    /** The envelope, version/sender_id/sender_epoch filled in. */
                    envelope?: (ectp.v1.Envelope.$Properties|null|undefined);

                    /**
                     * Optional feature "raw-outputs": the bytes the implementation's own
                     * encoder makes of `envelope`, exactly as it puts them on a message
                     * transport (one serialized Envelope, no length prefix; SPEC.md section 5).
                     * The runner decodes them with the reference decoder, which applies
                     * section 5's limits, and checks that they carry `envelope`. Empty: not
                     * given (a testee claiming "raw-outputs" MUST give it, or raw_error, on
                     * every send).
                     */
                    raw?: (Uint8Array|null|undefined);

                    /**
                     * Optional feature "raw-outputs": why the implementation's encoder refused
                     * `envelope` (raw is then empty). An implementation sends nothing it cannot
                     * encode, so the runner fails the case with these words.
                     */
                    rawError?: (string|null|undefined);

                    /** Unknown fields preserved while decoding when enabled */
                    $unknowns?: Uint8Array[];
                }

                /** Shape of a SendOutput. */
                type $Shape = {
                  /** `to`, as documented on this message's `$Properties`. */
                  to?: string|null;
                  /** `envelope`, as documented on this message's `$Properties`. */
                  envelope?: ectp.v1.Envelope.$Shape|null;
                  /** `raw`, as documented on this message's `$Properties`. */
                  raw?: Uint8Array|null;
                  /** `rawError`, as documented on this message's `$Properties`. */
                  rawError?: string|null;
                  /** `$unknowns`, as documented on this message's `$Properties`. */
                  $unknowns?: Uint8Array[];
                };
            }

            /**
             * Properties of a StartReadOutput.
             * @deprecated Use ectp.conformance.v1.StartReadOutput.$Properties instead.
             */
            interface IStartReadOutput extends ectp.conformance.v1.StartReadOutput.$Properties {
            }

            /**
             * Start a one-sided read. The runner answers later with DeliverReadResult
             * (exactly once per read_id, whatever happens).
             */
            class StartReadOutput {

                /**
                 * Constructs a new StartReadOutput.
                 * @param [properties] Properties to set
                 */
                constructor(properties?: ectp.conformance.v1.StartReadOutput.$Properties);

                /** Unknown fields preserved while decoding when enabled */
                $unknowns?: Uint8Array[];

                /** Id of the read, unique among this instance's unsettled reads. > 0. */
                readId: number;

                /** The producer holding the bytes. */
                peerId: string;

                /** The source location (from the grant's descriptor). */
                source: Uint8Array;

                /** Number of bytes to read. */
                length: number;

                /**
                 * Identity of the destination memory: the testee's region id. With
                 * destination_offset and length it lets the runner check that no two
                 * unsettled reads share destination bytes [I5]. Required: the runner fails
                 * a case whose testee reports a read without it.
                 */
                destinationRegion: string;

                /** Byte offset of the destination inside destination_region. */
                destinationOffset: number;

                /**
                 * Creates a new StartReadOutput instance using the specified properties.
                 * @param [properties] Properties to set
                 * @returns StartReadOutput instance
                 */
                static create(properties: ectp.conformance.v1.StartReadOutput.$Shape): ectp.conformance.v1.StartReadOutput & ectp.conformance.v1.StartReadOutput.$Shape;
                static create(properties?: ectp.conformance.v1.StartReadOutput.$Properties): ectp.conformance.v1.StartReadOutput;

                /**
                 * Encodes the specified StartReadOutput message. Does not implicitly {@link ectp.conformance.v1.StartReadOutput.verify|verify} messages.
                 * @param message StartReadOutput message or plain object to encode
                 * @param [writer] Writer to encode to
                 * @returns Writer
                 */
                static encode(message: ectp.conformance.v1.StartReadOutput.$Properties, writer?: $protobuf.Writer): $protobuf.Writer;

                /**
                 * Encodes the specified StartReadOutput message, length delimited. Does not implicitly {@link ectp.conformance.v1.StartReadOutput.verify|verify} messages.
                 * @param message StartReadOutput message or plain object to encode
                 * @param [writer] Writer to encode to
                 * @returns Writer
                 */
                static encodeDelimited(message: ectp.conformance.v1.StartReadOutput.$Properties, writer?: $protobuf.Writer): $protobuf.Writer;

                /**
                 * Decodes a StartReadOutput message from the specified reader or buffer.
                 * @param reader Reader or buffer to decode from
                 * @param [length] Message length if known beforehand
                 * @returns {ectp.conformance.v1.StartReadOutput & ectp.conformance.v1.StartReadOutput.$Shape} StartReadOutput
                 * @throws {Error} If the payload is not a reader or valid buffer
                 * @throws {$protobuf.util.ProtocolError} If required fields are missing
                 */
                static decode(reader: ($protobuf.Reader|Uint8Array), length?: number): ectp.conformance.v1.StartReadOutput & ectp.conformance.v1.StartReadOutput.$Shape;

                /**
                 * Decodes a StartReadOutput message from the specified reader or buffer, length delimited.
                 * @param reader Reader or buffer to decode from
                 * @returns {ectp.conformance.v1.StartReadOutput & ectp.conformance.v1.StartReadOutput.$Shape} StartReadOutput
                 * @throws {Error} If the payload is not a reader or valid buffer
                 * @throws {$protobuf.util.ProtocolError} If required fields are missing
                 */
                static decodeDelimited(reader: ($protobuf.Reader|Uint8Array)): ectp.conformance.v1.StartReadOutput & ectp.conformance.v1.StartReadOutput.$Shape;

                /**
                 * Verifies a StartReadOutput message.
                 * @param message Plain object to verify
                 * @returns `null` if valid, otherwise the reason why it is not
                 */
                static verify(message: { [k: string]: any }): (string|null);

                /**
                 * Creates a StartReadOutput message from a plain object. Also converts values to their respective internal types.
                 * @param object Plain object
                 * @returns StartReadOutput
                 */
                static fromObject(object: { [k: string]: any }): ectp.conformance.v1.StartReadOutput;

                /**
                 * Creates a plain object from a StartReadOutput message. Also converts values to other types if specified.
                 * @param message StartReadOutput
                 * @param [options] Conversion options
                 * @returns Plain object
                 */
                static toObject(message: ectp.conformance.v1.StartReadOutput, options?: $protobuf.IConversionOptions): { [k: string]: any };

                /**
                 * Converts this StartReadOutput to JSON.
                 * @returns JSON object
                 */
                toJSON(): { [k: string]: any };

                /**
                 * Gets the type url for StartReadOutput
                 * @param [prefix] Custom type url prefix, defaults to `"type.googleapis.com"`
                 * @returns The type url
                 */
                static getTypeUrl(prefix?: string): string;
            }

            namespace StartReadOutput {

                /** Properties of a StartReadOutput. */
                interface $Properties {

                    /** Id of the read, unique among this instance's unsettled reads. > 0. */
                    readId?: (number|null|undefined);

                    /** The producer holding the bytes. */
                    peerId?: (string|null|undefined);

                    /** The source location (from the grant's descriptor). */
                    source?: (Uint8Array|null|undefined);

                    /** Number of bytes to read. */
                    length?: (number|null|undefined);

                    /**
                     * Identity of the destination memory: the testee's region id. With
                     * destination_offset and length it lets the runner check that no two
                     * unsettled reads share destination bytes [I5]. Required: the runner fails
                     * a case whose testee reports a read without it.
                     */
                    destinationRegion?: (string|null|undefined);

                    /** Byte offset of the destination inside destination_region. */
                    destinationOffset?: (number|null|undefined);

                    /** Unknown fields preserved while decoding when enabled */
                    $unknowns?: Uint8Array[];
                }

                /** Shape of a StartReadOutput. */
                type $Shape = ectp.conformance.v1.StartReadOutput.$Properties;
            }

            /**
             * Properties of a CancelReadOutput.
             * @deprecated Use ectp.conformance.v1.CancelReadOutput.$Properties instead.
             */
            interface ICancelReadOutput extends ectp.conformance.v1.CancelReadOutput.$Properties {
            }

            /** Cancel a read; its DeliverReadResult still follows. */
            class CancelReadOutput {

                /**
                 * Constructs a new CancelReadOutput.
                 * @param [properties] Properties to set
                 */
                constructor(properties?: ectp.conformance.v1.CancelReadOutput.$Properties);

                /** Unknown fields preserved while decoding when enabled */
                $unknowns?: Uint8Array[];

                /** The read_id of the StartReadOutput to cancel. */
                readId: number;

                /**
                 * Creates a new CancelReadOutput instance using the specified properties.
                 * @param [properties] Properties to set
                 * @returns CancelReadOutput instance
                 */
                static create(properties: ectp.conformance.v1.CancelReadOutput.$Shape): ectp.conformance.v1.CancelReadOutput & ectp.conformance.v1.CancelReadOutput.$Shape;
                static create(properties?: ectp.conformance.v1.CancelReadOutput.$Properties): ectp.conformance.v1.CancelReadOutput;

                /**
                 * Encodes the specified CancelReadOutput message. Does not implicitly {@link ectp.conformance.v1.CancelReadOutput.verify|verify} messages.
                 * @param message CancelReadOutput message or plain object to encode
                 * @param [writer] Writer to encode to
                 * @returns Writer
                 */
                static encode(message: ectp.conformance.v1.CancelReadOutput.$Properties, writer?: $protobuf.Writer): $protobuf.Writer;

                /**
                 * Encodes the specified CancelReadOutput message, length delimited. Does not implicitly {@link ectp.conformance.v1.CancelReadOutput.verify|verify} messages.
                 * @param message CancelReadOutput message or plain object to encode
                 * @param [writer] Writer to encode to
                 * @returns Writer
                 */
                static encodeDelimited(message: ectp.conformance.v1.CancelReadOutput.$Properties, writer?: $protobuf.Writer): $protobuf.Writer;

                /**
                 * Decodes a CancelReadOutput message from the specified reader or buffer.
                 * @param reader Reader or buffer to decode from
                 * @param [length] Message length if known beforehand
                 * @returns {ectp.conformance.v1.CancelReadOutput & ectp.conformance.v1.CancelReadOutput.$Shape} CancelReadOutput
                 * @throws {Error} If the payload is not a reader or valid buffer
                 * @throws {$protobuf.util.ProtocolError} If required fields are missing
                 */
                static decode(reader: ($protobuf.Reader|Uint8Array), length?: number): ectp.conformance.v1.CancelReadOutput & ectp.conformance.v1.CancelReadOutput.$Shape;

                /**
                 * Decodes a CancelReadOutput message from the specified reader or buffer, length delimited.
                 * @param reader Reader or buffer to decode from
                 * @returns {ectp.conformance.v1.CancelReadOutput & ectp.conformance.v1.CancelReadOutput.$Shape} CancelReadOutput
                 * @throws {Error} If the payload is not a reader or valid buffer
                 * @throws {$protobuf.util.ProtocolError} If required fields are missing
                 */
                static decodeDelimited(reader: ($protobuf.Reader|Uint8Array)): ectp.conformance.v1.CancelReadOutput & ectp.conformance.v1.CancelReadOutput.$Shape;

                /**
                 * Verifies a CancelReadOutput message.
                 * @param message Plain object to verify
                 * @returns `null` if valid, otherwise the reason why it is not
                 */
                static verify(message: { [k: string]: any }): (string|null);

                /**
                 * Creates a CancelReadOutput message from a plain object. Also converts values to their respective internal types.
                 * @param object Plain object
                 * @returns CancelReadOutput
                 */
                static fromObject(object: { [k: string]: any }): ectp.conformance.v1.CancelReadOutput;

                /**
                 * Creates a plain object from a CancelReadOutput message. Also converts values to other types if specified.
                 * @param message CancelReadOutput
                 * @param [options] Conversion options
                 * @returns Plain object
                 */
                static toObject(message: ectp.conformance.v1.CancelReadOutput, options?: $protobuf.IConversionOptions): { [k: string]: any };

                /**
                 * Converts this CancelReadOutput to JSON.
                 * @returns JSON object
                 */
                toJSON(): { [k: string]: any };

                /**
                 * Gets the type url for CancelReadOutput
                 * @param [prefix] Custom type url prefix, defaults to `"type.googleapis.com"`
                 * @returns The type url
                 */
                static getTypeUrl(prefix?: string): string;
            }

            namespace CancelReadOutput {

                /** Properties of a CancelReadOutput. */
                interface $Properties {

                    /** The read_id of the StartReadOutput to cancel. */
                    readId?: (number|null|undefined);

                    /** Unknown fields preserved while decoding when enabled */
                    $unknowns?: Uint8Array[];
                }

                /** Shape of a CancelReadOutput. */
                type $Shape = ectp.conformance.v1.CancelReadOutput.$Properties;
            }

            /**
             * Properties of a ConnectPeerOutput.
             * @deprecated Use ectp.conformance.v1.ConnectPeerOutput.$Properties instead.
             */
            interface IConnectPeerOutput extends ectp.conformance.v1.ConnectPeerOutput.$Properties {
            }

            /**
             * Make a peer reachable with its metadata. The runner treats it as
             * immediately successful unless a case says otherwise.
             */
            class ConnectPeerOutput {

                /**
                 * Constructs a new ConnectPeerOutput.
                 * @param [properties] Properties to set
                 */
                constructor(properties?: ectp.conformance.v1.ConnectPeerOutput.$Properties);

                /** Unknown fields preserved while decoding when enabled */
                $unknowns?: Uint8Array[];

                /** Id of the peer to connect to. */
                peerId: string;

                /** The peer epoch the metadata belongs to. */
                epoch: number;

                /**
                 * The peer's transport metadata, opaque to the runner: what the
                 * transport connects with.
                 */
                metadata: Uint8Array;

                /**
                 * Creates a new ConnectPeerOutput instance using the specified properties.
                 * @param [properties] Properties to set
                 * @returns ConnectPeerOutput instance
                 */
                static create(properties: ectp.conformance.v1.ConnectPeerOutput.$Shape): ectp.conformance.v1.ConnectPeerOutput & ectp.conformance.v1.ConnectPeerOutput.$Shape;
                static create(properties?: ectp.conformance.v1.ConnectPeerOutput.$Properties): ectp.conformance.v1.ConnectPeerOutput;

                /**
                 * Encodes the specified ConnectPeerOutput message. Does not implicitly {@link ectp.conformance.v1.ConnectPeerOutput.verify|verify} messages.
                 * @param message ConnectPeerOutput message or plain object to encode
                 * @param [writer] Writer to encode to
                 * @returns Writer
                 */
                static encode(message: ectp.conformance.v1.ConnectPeerOutput.$Properties, writer?: $protobuf.Writer): $protobuf.Writer;

                /**
                 * Encodes the specified ConnectPeerOutput message, length delimited. Does not implicitly {@link ectp.conformance.v1.ConnectPeerOutput.verify|verify} messages.
                 * @param message ConnectPeerOutput message or plain object to encode
                 * @param [writer] Writer to encode to
                 * @returns Writer
                 */
                static encodeDelimited(message: ectp.conformance.v1.ConnectPeerOutput.$Properties, writer?: $protobuf.Writer): $protobuf.Writer;

                /**
                 * Decodes a ConnectPeerOutput message from the specified reader or buffer.
                 * @param reader Reader or buffer to decode from
                 * @param [length] Message length if known beforehand
                 * @returns {ectp.conformance.v1.ConnectPeerOutput & ectp.conformance.v1.ConnectPeerOutput.$Shape} ConnectPeerOutput
                 * @throws {Error} If the payload is not a reader or valid buffer
                 * @throws {$protobuf.util.ProtocolError} If required fields are missing
                 */
                static decode(reader: ($protobuf.Reader|Uint8Array), length?: number): ectp.conformance.v1.ConnectPeerOutput & ectp.conformance.v1.ConnectPeerOutput.$Shape;

                /**
                 * Decodes a ConnectPeerOutput message from the specified reader or buffer, length delimited.
                 * @param reader Reader or buffer to decode from
                 * @returns {ectp.conformance.v1.ConnectPeerOutput & ectp.conformance.v1.ConnectPeerOutput.$Shape} ConnectPeerOutput
                 * @throws {Error} If the payload is not a reader or valid buffer
                 * @throws {$protobuf.util.ProtocolError} If required fields are missing
                 */
                static decodeDelimited(reader: ($protobuf.Reader|Uint8Array)): ectp.conformance.v1.ConnectPeerOutput & ectp.conformance.v1.ConnectPeerOutput.$Shape;

                /**
                 * Verifies a ConnectPeerOutput message.
                 * @param message Plain object to verify
                 * @returns `null` if valid, otherwise the reason why it is not
                 */
                static verify(message: { [k: string]: any }): (string|null);

                /**
                 * Creates a ConnectPeerOutput message from a plain object. Also converts values to their respective internal types.
                 * @param object Plain object
                 * @returns ConnectPeerOutput
                 */
                static fromObject(object: { [k: string]: any }): ectp.conformance.v1.ConnectPeerOutput;

                /**
                 * Creates a plain object from a ConnectPeerOutput message. Also converts values to other types if specified.
                 * @param message ConnectPeerOutput
                 * @param [options] Conversion options
                 * @returns Plain object
                 */
                static toObject(message: ectp.conformance.v1.ConnectPeerOutput, options?: $protobuf.IConversionOptions): { [k: string]: any };

                /**
                 * Converts this ConnectPeerOutput to JSON.
                 * @returns JSON object
                 */
                toJSON(): { [k: string]: any };

                /**
                 * Gets the type url for ConnectPeerOutput
                 * @param [prefix] Custom type url prefix, defaults to `"type.googleapis.com"`
                 * @returns The type url
                 */
                static getTypeUrl(prefix?: string): string;
            }

            namespace ConnectPeerOutput {

                /** Properties of a ConnectPeerOutput. */
                interface $Properties {

                    /** Id of the peer to connect to. */
                    peerId?: (string|null|undefined);

                    /** The peer epoch the metadata belongs to. */
                    epoch?: (number|null|undefined);

                    /**
                     * The peer's transport metadata, opaque to the runner: what the
                     * transport connects with.
                     */
                    metadata?: (Uint8Array|null|undefined);

                    /** Unknown fields preserved while decoding when enabled */
                    $unknowns?: Uint8Array[];
                }

                /** Shape of a ConnectPeerOutput. */
                type $Shape = ectp.conformance.v1.ConnectPeerOutput.$Properties;
            }

            /**
             * Properties of a DisconnectPeerOutput.
             * @deprecated Use ectp.conformance.v1.DisconnectPeerOutput.$Properties instead.
             */
            interface IDisconnectPeerOutput extends ectp.conformance.v1.DisconnectPeerOutput.$Properties {
            }

            /** Forget a peer's metadata. */
            class DisconnectPeerOutput {

                /**
                 * Constructs a new DisconnectPeerOutput.
                 * @param [properties] Properties to set
                 */
                constructor(properties?: ectp.conformance.v1.DisconnectPeerOutput.$Properties);

                /** Unknown fields preserved while decoding when enabled */
                $unknowns?: Uint8Array[];

                /** Id of the peer whose metadata to forget. */
                peerId: string;

                /**
                 * Creates a new DisconnectPeerOutput instance using the specified properties.
                 * @param [properties] Properties to set
                 * @returns DisconnectPeerOutput instance
                 */
                static create(properties: ectp.conformance.v1.DisconnectPeerOutput.$Shape): ectp.conformance.v1.DisconnectPeerOutput & ectp.conformance.v1.DisconnectPeerOutput.$Shape;
                static create(properties?: ectp.conformance.v1.DisconnectPeerOutput.$Properties): ectp.conformance.v1.DisconnectPeerOutput;

                /**
                 * Encodes the specified DisconnectPeerOutput message. Does not implicitly {@link ectp.conformance.v1.DisconnectPeerOutput.verify|verify} messages.
                 * @param message DisconnectPeerOutput message or plain object to encode
                 * @param [writer] Writer to encode to
                 * @returns Writer
                 */
                static encode(message: ectp.conformance.v1.DisconnectPeerOutput.$Properties, writer?: $protobuf.Writer): $protobuf.Writer;

                /**
                 * Encodes the specified DisconnectPeerOutput message, length delimited. Does not implicitly {@link ectp.conformance.v1.DisconnectPeerOutput.verify|verify} messages.
                 * @param message DisconnectPeerOutput message or plain object to encode
                 * @param [writer] Writer to encode to
                 * @returns Writer
                 */
                static encodeDelimited(message: ectp.conformance.v1.DisconnectPeerOutput.$Properties, writer?: $protobuf.Writer): $protobuf.Writer;

                /**
                 * Decodes a DisconnectPeerOutput message from the specified reader or buffer.
                 * @param reader Reader or buffer to decode from
                 * @param [length] Message length if known beforehand
                 * @returns {ectp.conformance.v1.DisconnectPeerOutput & ectp.conformance.v1.DisconnectPeerOutput.$Shape} DisconnectPeerOutput
                 * @throws {Error} If the payload is not a reader or valid buffer
                 * @throws {$protobuf.util.ProtocolError} If required fields are missing
                 */
                static decode(reader: ($protobuf.Reader|Uint8Array), length?: number): ectp.conformance.v1.DisconnectPeerOutput & ectp.conformance.v1.DisconnectPeerOutput.$Shape;

                /**
                 * Decodes a DisconnectPeerOutput message from the specified reader or buffer, length delimited.
                 * @param reader Reader or buffer to decode from
                 * @returns {ectp.conformance.v1.DisconnectPeerOutput & ectp.conformance.v1.DisconnectPeerOutput.$Shape} DisconnectPeerOutput
                 * @throws {Error} If the payload is not a reader or valid buffer
                 * @throws {$protobuf.util.ProtocolError} If required fields are missing
                 */
                static decodeDelimited(reader: ($protobuf.Reader|Uint8Array)): ectp.conformance.v1.DisconnectPeerOutput & ectp.conformance.v1.DisconnectPeerOutput.$Shape;

                /**
                 * Verifies a DisconnectPeerOutput message.
                 * @param message Plain object to verify
                 * @returns `null` if valid, otherwise the reason why it is not
                 */
                static verify(message: { [k: string]: any }): (string|null);

                /**
                 * Creates a DisconnectPeerOutput message from a plain object. Also converts values to their respective internal types.
                 * @param object Plain object
                 * @returns DisconnectPeerOutput
                 */
                static fromObject(object: { [k: string]: any }): ectp.conformance.v1.DisconnectPeerOutput;

                /**
                 * Creates a plain object from a DisconnectPeerOutput message. Also converts values to other types if specified.
                 * @param message DisconnectPeerOutput
                 * @param [options] Conversion options
                 * @returns Plain object
                 */
                static toObject(message: ectp.conformance.v1.DisconnectPeerOutput, options?: $protobuf.IConversionOptions): { [k: string]: any };

                /**
                 * Converts this DisconnectPeerOutput to JSON.
                 * @returns JSON object
                 */
                toJSON(): { [k: string]: any };

                /**
                 * Gets the type url for DisconnectPeerOutput
                 * @param [prefix] Custom type url prefix, defaults to `"type.googleapis.com"`
                 * @returns The type url
                 */
                static getTypeUrl(prefix?: string): string;
            }

            namespace DisconnectPeerOutput {

                /** Properties of a DisconnectPeerOutput. */
                interface $Properties {

                    /** Id of the peer whose metadata to forget. */
                    peerId?: (string|null|undefined);

                    /** Unknown fields preserved while decoding when enabled */
                    $unknowns?: Uint8Array[];
                }

                /** Shape of a DisconnectPeerOutput. */
                type $Shape = ectp.conformance.v1.DisconnectPeerOutput.$Properties;
            }

            /**
             * Properties of an EventBatchOutput.
             * @deprecated Use ectp.conformance.v1.EventBatchOutput.$Properties instead.
             */
            interface IEventBatchOutput extends ectp.conformance.v1.EventBatchOutput.$Properties {
            }

            /** An event batch for in-process subscribers [E1]. */
            class EventBatchOutput {

                /**
                 * Constructs a new EventBatchOutput.
                 * @param [properties] Properties to set
                 */
                constructor(properties?: ectp.conformance.v1.EventBatchOutput.$Properties);

                /** Unknown fields preserved while decoding when enabled */
                $unknowns?: Uint8Array[];

                /** The batch (also sent to remote subscribers as EventBatch envelopes). */
                batch?: (ectp.v1.EventBatch.$Properties|null|undefined);

                /**
                 * Creates a new EventBatchOutput instance using the specified properties.
                 * @param [properties] Properties to set
                 * @returns EventBatchOutput instance
                 */
                static create(properties: ectp.conformance.v1.EventBatchOutput.$Shape): ectp.conformance.v1.EventBatchOutput & ectp.conformance.v1.EventBatchOutput.$Shape;
                static create(properties?: ectp.conformance.v1.EventBatchOutput.$Properties): ectp.conformance.v1.EventBatchOutput;

                /**
                 * Encodes the specified EventBatchOutput message. Does not implicitly {@link ectp.conformance.v1.EventBatchOutput.verify|verify} messages.
                 * @param message EventBatchOutput message or plain object to encode
                 * @param [writer] Writer to encode to
                 * @returns Writer
                 */
                static encode(message: ectp.conformance.v1.EventBatchOutput.$Properties, writer?: $protobuf.Writer): $protobuf.Writer;

                /**
                 * Encodes the specified EventBatchOutput message, length delimited. Does not implicitly {@link ectp.conformance.v1.EventBatchOutput.verify|verify} messages.
                 * @param message EventBatchOutput message or plain object to encode
                 * @param [writer] Writer to encode to
                 * @returns Writer
                 */
                static encodeDelimited(message: ectp.conformance.v1.EventBatchOutput.$Properties, writer?: $protobuf.Writer): $protobuf.Writer;

                /**
                 * Decodes an EventBatchOutput message from the specified reader or buffer.
                 * @param reader Reader or buffer to decode from
                 * @param [length] Message length if known beforehand
                 * @returns {ectp.conformance.v1.EventBatchOutput & ectp.conformance.v1.EventBatchOutput.$Shape} EventBatchOutput
                 * @throws {Error} If the payload is not a reader or valid buffer
                 * @throws {$protobuf.util.ProtocolError} If required fields are missing
                 */
                static decode(reader: ($protobuf.Reader|Uint8Array), length?: number): ectp.conformance.v1.EventBatchOutput & ectp.conformance.v1.EventBatchOutput.$Shape;

                /**
                 * Decodes an EventBatchOutput message from the specified reader or buffer, length delimited.
                 * @param reader Reader or buffer to decode from
                 * @returns {ectp.conformance.v1.EventBatchOutput & ectp.conformance.v1.EventBatchOutput.$Shape} EventBatchOutput
                 * @throws {Error} If the payload is not a reader or valid buffer
                 * @throws {$protobuf.util.ProtocolError} If required fields are missing
                 */
                static decodeDelimited(reader: ($protobuf.Reader|Uint8Array)): ectp.conformance.v1.EventBatchOutput & ectp.conformance.v1.EventBatchOutput.$Shape;

                /**
                 * Verifies an EventBatchOutput message.
                 * @param message Plain object to verify
                 * @returns `null` if valid, otherwise the reason why it is not
                 */
                static verify(message: { [k: string]: any }): (string|null);

                /**
                 * Creates an EventBatchOutput message from a plain object. Also converts values to their respective internal types.
                 * @param object Plain object
                 * @returns EventBatchOutput
                 */
                static fromObject(object: { [k: string]: any }): ectp.conformance.v1.EventBatchOutput;

                /**
                 * Creates a plain object from an EventBatchOutput message. Also converts values to other types if specified.
                 * @param message EventBatchOutput
                 * @param [options] Conversion options
                 * @returns Plain object
                 */
                static toObject(message: ectp.conformance.v1.EventBatchOutput, options?: $protobuf.IConversionOptions): { [k: string]: any };

                /**
                 * Converts this EventBatchOutput to JSON.
                 * @returns JSON object
                 */
                toJSON(): { [k: string]: any };

                /**
                 * Gets the type url for EventBatchOutput
                 * @param [prefix] Custom type url prefix, defaults to `"type.googleapis.com"`
                 * @returns The type url
                 */
                static getTypeUrl(prefix?: string): string;
            }

            namespace EventBatchOutput {

                /** Properties of an EventBatchOutput. */
                interface $Properties {

                    /** The batch (also sent to remote subscribers as EventBatch envelopes). */
                    batch?: (ectp.v1.EventBatch.$Properties|null|undefined);

                    /** Unknown fields preserved while decoding when enabled */
                    $unknowns?: Uint8Array[];
                }

                /** Shape of an EventBatchOutput. */
                type $Shape = {
                  /** `batch`, as documented on this message's `$Properties`. */
                  batch?: ectp.v1.EventBatch.$Shape|null;
                  /** `$unknowns`, as documented on this message's `$Properties`. */
                  $unknowns?: Uint8Array[];
                };
            }

            /**
             * Properties of a DecodeStream.
             * @deprecated Use ectp.conformance.v1.DecodeStream.$Properties instead.
             */
            interface IDecodeStream extends ectp.conformance.v1.DecodeStream.$Properties {
            }

            /**
             * Optional feature "stream-framing": decode bytes with the implementation's
             * own decoder of size-delimited byte streams (spec/SPEC.md section 5, "Byte
             * streams"), as a connection hands it what arrived. The testee makes one new
             * decoder (with `max_frame_bytes`), gives it every chunk in order, also after
             * it reported an error (the decoder, not the testee, must refuse what
             * follows), then ends the stream, as when the peer closes it. After that
             * first error the decoder may refuse the later pushes, and the end, with
             * any error: the testee ignores them, and only the frames the decoder still
             * hands out count. It touches no instance, so any role answers it (the
             * suite's cases run under the first role the features file claims,
             * TESTEE-PROTOCOL.md section 5.5). Answered with DecodeStreamResult.
             */
            class DecodeStream {

                /**
                 * Constructs a new DecodeStream.
                 * @param [properties] Properties to set
                 */
                constructor(properties?: ectp.conformance.v1.DecodeStream.$Properties);

                /** Unknown fields preserved while decoding when enabled */
                $unknowns?: Uint8Array[];

                /**
                 * The stream's bytes, in the chunks they arrived in, in order. A chunk may
                 * hold part of a frame header, several frames, or the end of one frame and
                 * the start of the next. Empty: a stream closed before its first byte
                 * (the runner sends an empty stream as no chunk at all). The runner sends
                 * at most 65536 chunks, of at most 32 MiB together.
                 */
                chunks: Uint8Array[];

                /**
                 * The receiver's largest frame payload in bytes. Absent: the
                 * implementation's default, which MUST be SPEC.md's 16 MiB (16777216).
                 */
                maxFrameBytes?: (number|null|undefined);

                /**
                 * Creates a new DecodeStream instance using the specified properties.
                 * @param [properties] Properties to set
                 * @returns DecodeStream instance
                 */
                static create(properties: ectp.conformance.v1.DecodeStream.$Shape): ectp.conformance.v1.DecodeStream & ectp.conformance.v1.DecodeStream.$Shape;
                static create(properties?: ectp.conformance.v1.DecodeStream.$Properties): ectp.conformance.v1.DecodeStream;

                /**
                 * Encodes the specified DecodeStream message. Does not implicitly {@link ectp.conformance.v1.DecodeStream.verify|verify} messages.
                 * @param message DecodeStream message or plain object to encode
                 * @param [writer] Writer to encode to
                 * @returns Writer
                 */
                static encode(message: ectp.conformance.v1.DecodeStream.$Properties, writer?: $protobuf.Writer): $protobuf.Writer;

                /**
                 * Encodes the specified DecodeStream message, length delimited. Does not implicitly {@link ectp.conformance.v1.DecodeStream.verify|verify} messages.
                 * @param message DecodeStream message or plain object to encode
                 * @param [writer] Writer to encode to
                 * @returns Writer
                 */
                static encodeDelimited(message: ectp.conformance.v1.DecodeStream.$Properties, writer?: $protobuf.Writer): $protobuf.Writer;

                /**
                 * Decodes a DecodeStream message from the specified reader or buffer.
                 * @param reader Reader or buffer to decode from
                 * @param [length] Message length if known beforehand
                 * @returns {ectp.conformance.v1.DecodeStream & ectp.conformance.v1.DecodeStream.$Shape} DecodeStream
                 * @throws {Error} If the payload is not a reader or valid buffer
                 * @throws {$protobuf.util.ProtocolError} If required fields are missing
                 */
                static decode(reader: ($protobuf.Reader|Uint8Array), length?: number): ectp.conformance.v1.DecodeStream & ectp.conformance.v1.DecodeStream.$Shape;

                /**
                 * Decodes a DecodeStream message from the specified reader or buffer, length delimited.
                 * @param reader Reader or buffer to decode from
                 * @returns {ectp.conformance.v1.DecodeStream & ectp.conformance.v1.DecodeStream.$Shape} DecodeStream
                 * @throws {Error} If the payload is not a reader or valid buffer
                 * @throws {$protobuf.util.ProtocolError} If required fields are missing
                 */
                static decodeDelimited(reader: ($protobuf.Reader|Uint8Array)): ectp.conformance.v1.DecodeStream & ectp.conformance.v1.DecodeStream.$Shape;

                /**
                 * Verifies a DecodeStream message.
                 * @param message Plain object to verify
                 * @returns `null` if valid, otherwise the reason why it is not
                 */
                static verify(message: { [k: string]: any }): (string|null);

                /**
                 * Creates a DecodeStream message from a plain object. Also converts values to their respective internal types.
                 * @param object Plain object
                 * @returns DecodeStream
                 */
                static fromObject(object: { [k: string]: any }): ectp.conformance.v1.DecodeStream;

                /**
                 * Creates a plain object from a DecodeStream message. Also converts values to other types if specified.
                 * @param message DecodeStream
                 * @param [options] Conversion options
                 * @returns Plain object
                 */
                static toObject(message: ectp.conformance.v1.DecodeStream, options?: $protobuf.IConversionOptions): { [k: string]: any };

                /**
                 * Converts this DecodeStream to JSON.
                 * @returns JSON object
                 */
                toJSON(): { [k: string]: any };

                /**
                 * Gets the type url for DecodeStream
                 * @param [prefix] Custom type url prefix, defaults to `"type.googleapis.com"`
                 * @returns The type url
                 */
                static getTypeUrl(prefix?: string): string;
            }

            namespace DecodeStream {

                /** Properties of a DecodeStream. */
                interface $Properties {

                    /**
                     * The stream's bytes, in the chunks they arrived in, in order. A chunk may
                     * hold part of a frame header, several frames, or the end of one frame and
                     * the start of the next. Empty: a stream closed before its first byte
                     * (the runner sends an empty stream as no chunk at all). The runner sends
                     * at most 65536 chunks, of at most 32 MiB together.
                     */
                    chunks?: (Uint8Array[]|null|undefined);

                    /**
                     * The receiver's largest frame payload in bytes. Absent: the
                     * implementation's default, which MUST be SPEC.md's 16 MiB (16777216).
                     */
                    maxFrameBytes?: (number|null|undefined);

                    /** Unknown fields preserved while decoding when enabled */
                    $unknowns?: Uint8Array[];
                }

                /** Shape of a DecodeStream. */
                type $Shape = ectp.conformance.v1.DecodeStream.$Properties;
            }

            /**
             * Properties of a DecodeStreamResult.
             * @deprecated Use ectp.conformance.v1.DecodeStreamResult.$Properties instead.
             */
            interface IDecodeStreamResult extends ectp.conformance.v1.DecodeStreamResult.$Properties {
            }

            /** Answer to DecodeStream. */
            class DecodeStreamResult {

                /**
                 * Constructs a new DecodeStreamResult.
                 * @param [properties] Properties to set
                 */
                constructor(properties?: ectp.conformance.v1.DecodeStreamResult.$Properties);

                /** Unknown fields preserved while decoding when enabled */
                $unknowns?: Uint8Array[];

                /**
                 * Every payload the decoder handed out, in stream order, each with the
                 * chunk that completed it. A chunk index that is no chunk of the stream,
                 * or below the index of the frame before, is a malformed response.
                 */
                frames: ectp.conformance.v1.DecodedFrame.$Properties[];

                /** How the decoding ended. UNSPECIFIED is a malformed response. */
                outcome: ectp.conformance.v1.StreamOutcome;

                /**
                 * The chunk (0 for the first) whose push gave `outcome`; for an outcome
                 * given as the stream ended (CLEAN_END, MALFORMED_MESSAGE), the number of
                 * chunks. Above the number of chunks: a malformed response.
                 */
                outcomeChunk: number;

                /**
                 * Creates a new DecodeStreamResult instance using the specified properties.
                 * @param [properties] Properties to set
                 * @returns DecodeStreamResult instance
                 */
                static create(properties: ectp.conformance.v1.DecodeStreamResult.$Shape): ectp.conformance.v1.DecodeStreamResult & ectp.conformance.v1.DecodeStreamResult.$Shape;
                static create(properties?: ectp.conformance.v1.DecodeStreamResult.$Properties): ectp.conformance.v1.DecodeStreamResult;

                /**
                 * Encodes the specified DecodeStreamResult message. Does not implicitly {@link ectp.conformance.v1.DecodeStreamResult.verify|verify} messages.
                 * @param message DecodeStreamResult message or plain object to encode
                 * @param [writer] Writer to encode to
                 * @returns Writer
                 */
                static encode(message: ectp.conformance.v1.DecodeStreamResult.$Properties, writer?: $protobuf.Writer): $protobuf.Writer;

                /**
                 * Encodes the specified DecodeStreamResult message, length delimited. Does not implicitly {@link ectp.conformance.v1.DecodeStreamResult.verify|verify} messages.
                 * @param message DecodeStreamResult message or plain object to encode
                 * @param [writer] Writer to encode to
                 * @returns Writer
                 */
                static encodeDelimited(message: ectp.conformance.v1.DecodeStreamResult.$Properties, writer?: $protobuf.Writer): $protobuf.Writer;

                /**
                 * Decodes a DecodeStreamResult message from the specified reader or buffer.
                 * @param reader Reader or buffer to decode from
                 * @param [length] Message length if known beforehand
                 * @returns {ectp.conformance.v1.DecodeStreamResult & ectp.conformance.v1.DecodeStreamResult.$Shape} DecodeStreamResult
                 * @throws {Error} If the payload is not a reader or valid buffer
                 * @throws {$protobuf.util.ProtocolError} If required fields are missing
                 */
                static decode(reader: ($protobuf.Reader|Uint8Array), length?: number): ectp.conformance.v1.DecodeStreamResult & ectp.conformance.v1.DecodeStreamResult.$Shape;

                /**
                 * Decodes a DecodeStreamResult message from the specified reader or buffer, length delimited.
                 * @param reader Reader or buffer to decode from
                 * @returns {ectp.conformance.v1.DecodeStreamResult & ectp.conformance.v1.DecodeStreamResult.$Shape} DecodeStreamResult
                 * @throws {Error} If the payload is not a reader or valid buffer
                 * @throws {$protobuf.util.ProtocolError} If required fields are missing
                 */
                static decodeDelimited(reader: ($protobuf.Reader|Uint8Array)): ectp.conformance.v1.DecodeStreamResult & ectp.conformance.v1.DecodeStreamResult.$Shape;

                /**
                 * Verifies a DecodeStreamResult message.
                 * @param message Plain object to verify
                 * @returns `null` if valid, otherwise the reason why it is not
                 */
                static verify(message: { [k: string]: any }): (string|null);

                /**
                 * Creates a DecodeStreamResult message from a plain object. Also converts values to their respective internal types.
                 * @param object Plain object
                 * @returns DecodeStreamResult
                 */
                static fromObject(object: { [k: string]: any }): ectp.conformance.v1.DecodeStreamResult;

                /**
                 * Creates a plain object from a DecodeStreamResult message. Also converts values to other types if specified.
                 * @param message DecodeStreamResult
                 * @param [options] Conversion options
                 * @returns Plain object
                 */
                static toObject(message: ectp.conformance.v1.DecodeStreamResult, options?: $protobuf.IConversionOptions): { [k: string]: any };

                /**
                 * Converts this DecodeStreamResult to JSON.
                 * @returns JSON object
                 */
                toJSON(): { [k: string]: any };

                /**
                 * Gets the type url for DecodeStreamResult
                 * @param [prefix] Custom type url prefix, defaults to `"type.googleapis.com"`
                 * @returns The type url
                 */
                static getTypeUrl(prefix?: string): string;
            }

            namespace DecodeStreamResult {

                /** Properties of a DecodeStreamResult. */
                interface $Properties {

                    /**
                     * Every payload the decoder handed out, in stream order, each with the
                     * chunk that completed it. A chunk index that is no chunk of the stream,
                     * or below the index of the frame before, is a malformed response.
                     */
                    frames?: (ectp.conformance.v1.DecodedFrame.$Properties[]|null|undefined);

                    /** How the decoding ended. UNSPECIFIED is a malformed response. */
                    outcome?: (ectp.conformance.v1.StreamOutcome|null|undefined);

                    /**
                     * The chunk (0 for the first) whose push gave `outcome`; for an outcome
                     * given as the stream ended (CLEAN_END, MALFORMED_MESSAGE), the number of
                     * chunks. Above the number of chunks: a malformed response.
                     */
                    outcomeChunk?: (number|null|undefined);

                    /** Unknown fields preserved while decoding when enabled */
                    $unknowns?: Uint8Array[];
                }

                /** Shape of a DecodeStreamResult. */
                type $Shape = ectp.conformance.v1.DecodeStreamResult.$Properties;
            }

            /**
             * Properties of a DecodedFrame.
             * @deprecated Use ectp.conformance.v1.DecodedFrame.$Properties instead.
             */
            interface IDecodedFrame extends ectp.conformance.v1.DecodedFrame.$Properties {
            }

            /** One frame payload a stream decoder handed out. */
            class DecodedFrame {

                /**
                 * Constructs a new DecodedFrame.
                 * @param [properties] Properties to set
                 */
                constructor(properties?: ectp.conformance.v1.DecodedFrame.$Properties);

                /** Unknown fields preserved while decoding when enabled */
                $unknowns?: Uint8Array[];

                /** The payload; empty for a frame of length 0. */
                payload: Uint8Array;

                /**
                 * The chunk (0 for the first) whose push completed the frame: a decoder
                 * hands a frame out once its last byte has arrived, not later.
                 */
                chunk: number;

                /**
                 * Creates a new DecodedFrame instance using the specified properties.
                 * @param [properties] Properties to set
                 * @returns DecodedFrame instance
                 */
                static create(properties: ectp.conformance.v1.DecodedFrame.$Shape): ectp.conformance.v1.DecodedFrame & ectp.conformance.v1.DecodedFrame.$Shape;
                static create(properties?: ectp.conformance.v1.DecodedFrame.$Properties): ectp.conformance.v1.DecodedFrame;

                /**
                 * Encodes the specified DecodedFrame message. Does not implicitly {@link ectp.conformance.v1.DecodedFrame.verify|verify} messages.
                 * @param message DecodedFrame message or plain object to encode
                 * @param [writer] Writer to encode to
                 * @returns Writer
                 */
                static encode(message: ectp.conformance.v1.DecodedFrame.$Properties, writer?: $protobuf.Writer): $protobuf.Writer;

                /**
                 * Encodes the specified DecodedFrame message, length delimited. Does not implicitly {@link ectp.conformance.v1.DecodedFrame.verify|verify} messages.
                 * @param message DecodedFrame message or plain object to encode
                 * @param [writer] Writer to encode to
                 * @returns Writer
                 */
                static encodeDelimited(message: ectp.conformance.v1.DecodedFrame.$Properties, writer?: $protobuf.Writer): $protobuf.Writer;

                /**
                 * Decodes a DecodedFrame message from the specified reader or buffer.
                 * @param reader Reader or buffer to decode from
                 * @param [length] Message length if known beforehand
                 * @returns {ectp.conformance.v1.DecodedFrame & ectp.conformance.v1.DecodedFrame.$Shape} DecodedFrame
                 * @throws {Error} If the payload is not a reader or valid buffer
                 * @throws {$protobuf.util.ProtocolError} If required fields are missing
                 */
                static decode(reader: ($protobuf.Reader|Uint8Array), length?: number): ectp.conformance.v1.DecodedFrame & ectp.conformance.v1.DecodedFrame.$Shape;

                /**
                 * Decodes a DecodedFrame message from the specified reader or buffer, length delimited.
                 * @param reader Reader or buffer to decode from
                 * @returns {ectp.conformance.v1.DecodedFrame & ectp.conformance.v1.DecodedFrame.$Shape} DecodedFrame
                 * @throws {Error} If the payload is not a reader or valid buffer
                 * @throws {$protobuf.util.ProtocolError} If required fields are missing
                 */
                static decodeDelimited(reader: ($protobuf.Reader|Uint8Array)): ectp.conformance.v1.DecodedFrame & ectp.conformance.v1.DecodedFrame.$Shape;

                /**
                 * Verifies a DecodedFrame message.
                 * @param message Plain object to verify
                 * @returns `null` if valid, otherwise the reason why it is not
                 */
                static verify(message: { [k: string]: any }): (string|null);

                /**
                 * Creates a DecodedFrame message from a plain object. Also converts values to their respective internal types.
                 * @param object Plain object
                 * @returns DecodedFrame
                 */
                static fromObject(object: { [k: string]: any }): ectp.conformance.v1.DecodedFrame;

                /**
                 * Creates a plain object from a DecodedFrame message. Also converts values to other types if specified.
                 * @param message DecodedFrame
                 * @param [options] Conversion options
                 * @returns Plain object
                 */
                static toObject(message: ectp.conformance.v1.DecodedFrame, options?: $protobuf.IConversionOptions): { [k: string]: any };

                /**
                 * Converts this DecodedFrame to JSON.
                 * @returns JSON object
                 */
                toJSON(): { [k: string]: any };

                /**
                 * Gets the type url for DecodedFrame
                 * @param [prefix] Custom type url prefix, defaults to `"type.googleapis.com"`
                 * @returns The type url
                 */
                static getTypeUrl(prefix?: string): string;
            }

            namespace DecodedFrame {

                /** Properties of a DecodedFrame. */
                interface $Properties {

                    /** The payload; empty for a frame of length 0. */
                    payload?: (Uint8Array|null|undefined);

                    /**
                     * The chunk (0 for the first) whose push completed the frame: a decoder
                     * hands a frame out once its last byte has arrived, not later.
                     */
                    chunk?: (number|null|undefined);

                    /** Unknown fields preserved while decoding when enabled */
                    $unknowns?: Uint8Array[];
                }

                /** Shape of a DecodedFrame. */
                type $Shape = ectp.conformance.v1.DecodedFrame.$Properties;
            }

            /** How a stream decoder ended (spec/SPEC.md section 5). */
            enum StreamOutcome {

                /** Not given; a malformed response. */
                STREAM_OUTCOME_UNSPECIFIED = 0,

                /** The stream ended between two frames: every byte was decoded. */
                STREAM_OUTCOME_CLEAN_END = 1,

                /**
                 * A length prefix above the receiver's maximum: the error FRAME_TOO_LARGE,
                 * given as soon as the prefix arrived, without buffering its payload;
                 * nothing after it was decoded.
                 */
                STREAM_OUTCOME_FRAME_TOO_LARGE = 2,

                /**
                 * The stream ended inside a frame (a partial header or payload): a
                 * malformed-message error, given as the stream ended; the frames completed
                 * before it stand.
                 */
                STREAM_OUTCOME_MALFORMED_MESSAGE = 3
            }

            /**
             * Properties of a GetStats.
             * @deprecated Use ectp.conformance.v1.GetStats.$Properties instead.
             */
            interface IGetStats extends ectp.conformance.v1.GetStats.$Properties {
            }

            /** Report table sizes and counters. Answered with Stats. */
            class GetStats {

                /**
                 * Constructs a new GetStats.
                 * @param [properties] Properties to set
                 */
                constructor(properties?: ectp.conformance.v1.GetStats.$Properties);

                /** Unknown fields preserved while decoding when enabled */
                $unknowns?: Uint8Array[];

                /**
                 * Creates a new GetStats instance using the specified properties.
                 * @param [properties] Properties to set
                 * @returns GetStats instance
                 */
                static create(properties: ectp.conformance.v1.GetStats.$Shape): ectp.conformance.v1.GetStats & ectp.conformance.v1.GetStats.$Shape;
                static create(properties?: ectp.conformance.v1.GetStats.$Properties): ectp.conformance.v1.GetStats;

                /**
                 * Encodes the specified GetStats message. Does not implicitly {@link ectp.conformance.v1.GetStats.verify|verify} messages.
                 * @param message GetStats message or plain object to encode
                 * @param [writer] Writer to encode to
                 * @returns Writer
                 */
                static encode(message: ectp.conformance.v1.GetStats.$Properties, writer?: $protobuf.Writer): $protobuf.Writer;

                /**
                 * Encodes the specified GetStats message, length delimited. Does not implicitly {@link ectp.conformance.v1.GetStats.verify|verify} messages.
                 * @param message GetStats message or plain object to encode
                 * @param [writer] Writer to encode to
                 * @returns Writer
                 */
                static encodeDelimited(message: ectp.conformance.v1.GetStats.$Properties, writer?: $protobuf.Writer): $protobuf.Writer;

                /**
                 * Decodes a GetStats message from the specified reader or buffer.
                 * @param reader Reader or buffer to decode from
                 * @param [length] Message length if known beforehand
                 * @returns {ectp.conformance.v1.GetStats & ectp.conformance.v1.GetStats.$Shape} GetStats
                 * @throws {Error} If the payload is not a reader or valid buffer
                 * @throws {$protobuf.util.ProtocolError} If required fields are missing
                 */
                static decode(reader: ($protobuf.Reader|Uint8Array), length?: number): ectp.conformance.v1.GetStats & ectp.conformance.v1.GetStats.$Shape;

                /**
                 * Decodes a GetStats message from the specified reader or buffer, length delimited.
                 * @param reader Reader or buffer to decode from
                 * @returns {ectp.conformance.v1.GetStats & ectp.conformance.v1.GetStats.$Shape} GetStats
                 * @throws {Error} If the payload is not a reader or valid buffer
                 * @throws {$protobuf.util.ProtocolError} If required fields are missing
                 */
                static decodeDelimited(reader: ($protobuf.Reader|Uint8Array)): ectp.conformance.v1.GetStats & ectp.conformance.v1.GetStats.$Shape;

                /**
                 * Verifies a GetStats message.
                 * @param message Plain object to verify
                 * @returns `null` if valid, otherwise the reason why it is not
                 */
                static verify(message: { [k: string]: any }): (string|null);

                /**
                 * Creates a GetStats message from a plain object. Also converts values to their respective internal types.
                 * @param object Plain object
                 * @returns GetStats
                 */
                static fromObject(object: { [k: string]: any }): ectp.conformance.v1.GetStats;

                /**
                 * Creates a plain object from a GetStats message. Also converts values to other types if specified.
                 * @param message GetStats
                 * @param [options] Conversion options
                 * @returns Plain object
                 */
                static toObject(message: ectp.conformance.v1.GetStats, options?: $protobuf.IConversionOptions): { [k: string]: any };

                /**
                 * Converts this GetStats to JSON.
                 * @returns JSON object
                 */
                toJSON(): { [k: string]: any };

                /**
                 * Gets the type url for GetStats
                 * @param [prefix] Custom type url prefix, defaults to `"type.googleapis.com"`
                 * @returns The type url
                 */
                static getTypeUrl(prefix?: string): string;
            }

            namespace GetStats {

                /** Properties of a GetStats. */
                interface $Properties {

                    /** Unknown fields preserved while decoding when enabled */
                    $unknowns?: Uint8Array[];
                }

                /** Shape of a GetStats. */
                type $Shape = ectp.conformance.v1.GetStats.$Properties;
            }

            /**
             * Properties of a Stats.
             * @deprecated Use ectp.conformance.v1.Stats.$Properties instead.
             */
            interface IStats extends ectp.conformance.v1.Stats.$Properties {
            }

            /** Table sizes and counters of the instance, for [I3][I4][I5] checks. */
            class Stats {

                /**
                 * Constructs a new Stats.
                 * @param [properties] Properties to set
                 */
                constructor(properties?: ectp.conformance.v1.Stats.$Properties);

                /** Unknown fields preserved while decoding when enabled */
                $unknowns?: Uint8Array[];

                /** Set when the instance is a consumer. */
                consumer?: (ectp.conformance.v1.ConsumerStats.$Properties|null|undefined);

                /** Set when the instance is a producer. */
                producer?: (ectp.conformance.v1.ProducerStats.$Properties|null|undefined);

                /** Set when the instance is a subscriber. */
                subscriber?: (ectp.conformance.v1.SubscriberStats.$Properties|null|undefined);

                /**
                 * Creates a new Stats instance using the specified properties.
                 * @param [properties] Properties to set
                 * @returns Stats instance
                 */
                static create(properties: ectp.conformance.v1.Stats.$Shape): ectp.conformance.v1.Stats & ectp.conformance.v1.Stats.$Shape;
                static create(properties?: ectp.conformance.v1.Stats.$Properties): ectp.conformance.v1.Stats;

                /**
                 * Encodes the specified Stats message. Does not implicitly {@link ectp.conformance.v1.Stats.verify|verify} messages.
                 * @param message Stats message or plain object to encode
                 * @param [writer] Writer to encode to
                 * @returns Writer
                 */
                static encode(message: ectp.conformance.v1.Stats.$Properties, writer?: $protobuf.Writer): $protobuf.Writer;

                /**
                 * Encodes the specified Stats message, length delimited. Does not implicitly {@link ectp.conformance.v1.Stats.verify|verify} messages.
                 * @param message Stats message or plain object to encode
                 * @param [writer] Writer to encode to
                 * @returns Writer
                 */
                static encodeDelimited(message: ectp.conformance.v1.Stats.$Properties, writer?: $protobuf.Writer): $protobuf.Writer;

                /**
                 * Decodes a Stats message from the specified reader or buffer.
                 * @param reader Reader or buffer to decode from
                 * @param [length] Message length if known beforehand
                 * @returns {ectp.conformance.v1.Stats & ectp.conformance.v1.Stats.$Shape} Stats
                 * @throws {Error} If the payload is not a reader or valid buffer
                 * @throws {$protobuf.util.ProtocolError} If required fields are missing
                 */
                static decode(reader: ($protobuf.Reader|Uint8Array), length?: number): ectp.conformance.v1.Stats & ectp.conformance.v1.Stats.$Shape;

                /**
                 * Decodes a Stats message from the specified reader or buffer, length delimited.
                 * @param reader Reader or buffer to decode from
                 * @returns {ectp.conformance.v1.Stats & ectp.conformance.v1.Stats.$Shape} Stats
                 * @throws {Error} If the payload is not a reader or valid buffer
                 * @throws {$protobuf.util.ProtocolError} If required fields are missing
                 */
                static decodeDelimited(reader: ($protobuf.Reader|Uint8Array)): ectp.conformance.v1.Stats & ectp.conformance.v1.Stats.$Shape;

                /**
                 * Verifies a Stats message.
                 * @param message Plain object to verify
                 * @returns `null` if valid, otherwise the reason why it is not
                 */
                static verify(message: { [k: string]: any }): (string|null);

                /**
                 * Creates a Stats message from a plain object. Also converts values to their respective internal types.
                 * @param object Plain object
                 * @returns Stats
                 */
                static fromObject(object: { [k: string]: any }): ectp.conformance.v1.Stats;

                /**
                 * Creates a plain object from a Stats message. Also converts values to other types if specified.
                 * @param message Stats
                 * @param [options] Conversion options
                 * @returns Plain object
                 */
                static toObject(message: ectp.conformance.v1.Stats, options?: $protobuf.IConversionOptions): { [k: string]: any };

                /**
                 * Converts this Stats to JSON.
                 * @returns JSON object
                 */
                toJSON(): { [k: string]: any };

                /**
                 * Gets the type url for Stats
                 * @param [prefix] Custom type url prefix, defaults to `"type.googleapis.com"`
                 * @returns The type url
                 */
                static getTypeUrl(prefix?: string): string;
            }

            namespace Stats {

                /** Properties of a Stats. */
                interface $Properties {

                    /** Set when the instance is a consumer. */
                    consumer?: (ectp.conformance.v1.ConsumerStats.$Properties|null|undefined);

                    /** Set when the instance is a producer. */
                    producer?: (ectp.conformance.v1.ProducerStats.$Properties|null|undefined);

                    /** Set when the instance is a subscriber. */
                    subscriber?: (ectp.conformance.v1.SubscriberStats.$Properties|null|undefined);

                    /** Unknown fields preserved while decoding when enabled */
                    $unknowns?: Uint8Array[];
                }

                /** Shape of a Stats. */
                type $Shape = ectp.conformance.v1.Stats.$Properties;
            }

            /**
             * Properties of a SubscriberStats.
             * @deprecated Use ectp.conformance.v1.SubscriberStats.$Properties instead.
             */
            interface ISubscriberStats extends ectp.conformance.v1.SubscriberStats.$Properties {
            }

            /** Subscriber counters (the core's SubscriberStats). */
            class SubscriberStats {

                /**
                 * Constructs a new SubscriberStats.
                 * @param [properties] Properties to set
                 */
                constructor(properties?: ectp.conformance.v1.SubscriberStats.$Properties);

                /** Unknown fields preserved while decoding when enabled */
                $unknowns?: Uint8Array[];

                /** Producers followed. */
                producers: number;

                /**
                 * Followed producers whose view is current: a snapshot applied, nothing
                 * seen but not applied, no request open, not declared gone [E2][P8].
                 */
                synced: number;

                /** Snapshots applied (whole or assembled from parts). */
                snapshotsApplied: number;

                /** SnapshotRequests sent, first ones and retries. */
                snapshotRequests: number;

                /** ReplayRequests sent. */
                replayRequests: number;

                /**
                 * Messages ignored: unknown senders, stale epochs, duplicates, malformed
                 * parts [C10].
                 */
                ignoredMessages: number;

                /** Batches held ahead of a missing one, all producers [E2]. */
                heldBatches: number;

                /** Parts of snapshots still being assembled, all producers [E2]. */
                snapshotParts: number;

                /**
                 * Creates a new SubscriberStats instance using the specified properties.
                 * @param [properties] Properties to set
                 * @returns SubscriberStats instance
                 */
                static create(properties: ectp.conformance.v1.SubscriberStats.$Shape): ectp.conformance.v1.SubscriberStats & ectp.conformance.v1.SubscriberStats.$Shape;
                static create(properties?: ectp.conformance.v1.SubscriberStats.$Properties): ectp.conformance.v1.SubscriberStats;

                /**
                 * Encodes the specified SubscriberStats message. Does not implicitly {@link ectp.conformance.v1.SubscriberStats.verify|verify} messages.
                 * @param message SubscriberStats message or plain object to encode
                 * @param [writer] Writer to encode to
                 * @returns Writer
                 */
                static encode(message: ectp.conformance.v1.SubscriberStats.$Properties, writer?: $protobuf.Writer): $protobuf.Writer;

                /**
                 * Encodes the specified SubscriberStats message, length delimited. Does not implicitly {@link ectp.conformance.v1.SubscriberStats.verify|verify} messages.
                 * @param message SubscriberStats message or plain object to encode
                 * @param [writer] Writer to encode to
                 * @returns Writer
                 */
                static encodeDelimited(message: ectp.conformance.v1.SubscriberStats.$Properties, writer?: $protobuf.Writer): $protobuf.Writer;

                /**
                 * Decodes a SubscriberStats message from the specified reader or buffer.
                 * @param reader Reader or buffer to decode from
                 * @param [length] Message length if known beforehand
                 * @returns {ectp.conformance.v1.SubscriberStats & ectp.conformance.v1.SubscriberStats.$Shape} SubscriberStats
                 * @throws {Error} If the payload is not a reader or valid buffer
                 * @throws {$protobuf.util.ProtocolError} If required fields are missing
                 */
                static decode(reader: ($protobuf.Reader|Uint8Array), length?: number): ectp.conformance.v1.SubscriberStats & ectp.conformance.v1.SubscriberStats.$Shape;

                /**
                 * Decodes a SubscriberStats message from the specified reader or buffer, length delimited.
                 * @param reader Reader or buffer to decode from
                 * @returns {ectp.conformance.v1.SubscriberStats & ectp.conformance.v1.SubscriberStats.$Shape} SubscriberStats
                 * @throws {Error} If the payload is not a reader or valid buffer
                 * @throws {$protobuf.util.ProtocolError} If required fields are missing
                 */
                static decodeDelimited(reader: ($protobuf.Reader|Uint8Array)): ectp.conformance.v1.SubscriberStats & ectp.conformance.v1.SubscriberStats.$Shape;

                /**
                 * Verifies a SubscriberStats message.
                 * @param message Plain object to verify
                 * @returns `null` if valid, otherwise the reason why it is not
                 */
                static verify(message: { [k: string]: any }): (string|null);

                /**
                 * Creates a SubscriberStats message from a plain object. Also converts values to their respective internal types.
                 * @param object Plain object
                 * @returns SubscriberStats
                 */
                static fromObject(object: { [k: string]: any }): ectp.conformance.v1.SubscriberStats;

                /**
                 * Creates a plain object from a SubscriberStats message. Also converts values to other types if specified.
                 * @param message SubscriberStats
                 * @param [options] Conversion options
                 * @returns Plain object
                 */
                static toObject(message: ectp.conformance.v1.SubscriberStats, options?: $protobuf.IConversionOptions): { [k: string]: any };

                /**
                 * Converts this SubscriberStats to JSON.
                 * @returns JSON object
                 */
                toJSON(): { [k: string]: any };

                /**
                 * Gets the type url for SubscriberStats
                 * @param [prefix] Custom type url prefix, defaults to `"type.googleapis.com"`
                 * @returns The type url
                 */
                static getTypeUrl(prefix?: string): string;
            }

            namespace SubscriberStats {

                /** Properties of a SubscriberStats. */
                interface $Properties {

                    /** Producers followed. */
                    producers?: (number|null|undefined);

                    /**
                     * Followed producers whose view is current: a snapshot applied, nothing
                     * seen but not applied, no request open, not declared gone [E2][P8].
                     */
                    synced?: (number|null|undefined);

                    /** Snapshots applied (whole or assembled from parts). */
                    snapshotsApplied?: (number|null|undefined);

                    /** SnapshotRequests sent, first ones and retries. */
                    snapshotRequests?: (number|null|undefined);

                    /** ReplayRequests sent. */
                    replayRequests?: (number|null|undefined);

                    /**
                     * Messages ignored: unknown senders, stale epochs, duplicates, malformed
                     * parts [C10].
                     */
                    ignoredMessages?: (number|null|undefined);

                    /** Batches held ahead of a missing one, all producers [E2]. */
                    heldBatches?: (number|null|undefined);

                    /** Parts of snapshots still being assembled, all producers [E2]. */
                    snapshotParts?: (number|null|undefined);

                    /** Unknown fields preserved while decoding when enabled */
                    $unknowns?: Uint8Array[];
                }

                /** Shape of a SubscriberStats. */
                type $Shape = ectp.conformance.v1.SubscriberStats.$Properties;
            }

            /**
             * Properties of a Follow.
             * @deprecated Use ectp.conformance.v1.Follow.$Properties instead.
             */
            interface IFollow extends ectp.conformance.v1.Follow.$Properties {
            }

            /**
             * Start following producer `producer_id`: the subscriber greets it and asks
             * for a snapshot [E2]. Following a producer already followed changes nothing,
             * except with the connection of a newer producer epoch (it restarted).
             */
            class Follow {

                /**
                 * Constructs a new Follow.
                 * @param [properties] Properties to set
                 */
                constructor(properties?: ectp.conformance.v1.Follow.$Properties);

                /** Unknown fields preserved while decoding when enabled */
                $unknowns?: Uint8Array[];

                /** The producer's peer id. */
                producerId: string;

                /**
                 * How to reach the producer on a transport that loads a peer's metadata
                 * before sending to it. Absent: the runner's transport needs none.
                 */
                connection?: (ectp.conformance.v1.ProducerConnection.$Properties|null|undefined);

                /**
                 * Creates a new Follow instance using the specified properties.
                 * @param [properties] Properties to set
                 * @returns Follow instance
                 */
                static create(properties: ectp.conformance.v1.Follow.$Shape): ectp.conformance.v1.Follow & ectp.conformance.v1.Follow.$Shape;
                static create(properties?: ectp.conformance.v1.Follow.$Properties): ectp.conformance.v1.Follow;

                /**
                 * Encodes the specified Follow message. Does not implicitly {@link ectp.conformance.v1.Follow.verify|verify} messages.
                 * @param message Follow message or plain object to encode
                 * @param [writer] Writer to encode to
                 * @returns Writer
                 */
                static encode(message: ectp.conformance.v1.Follow.$Properties, writer?: $protobuf.Writer): $protobuf.Writer;

                /**
                 * Encodes the specified Follow message, length delimited. Does not implicitly {@link ectp.conformance.v1.Follow.verify|verify} messages.
                 * @param message Follow message or plain object to encode
                 * @param [writer] Writer to encode to
                 * @returns Writer
                 */
                static encodeDelimited(message: ectp.conformance.v1.Follow.$Properties, writer?: $protobuf.Writer): $protobuf.Writer;

                /**
                 * Decodes a Follow message from the specified reader or buffer.
                 * @param reader Reader or buffer to decode from
                 * @param [length] Message length if known beforehand
                 * @returns {ectp.conformance.v1.Follow & ectp.conformance.v1.Follow.$Shape} Follow
                 * @throws {Error} If the payload is not a reader or valid buffer
                 * @throws {$protobuf.util.ProtocolError} If required fields are missing
                 */
                static decode(reader: ($protobuf.Reader|Uint8Array), length?: number): ectp.conformance.v1.Follow & ectp.conformance.v1.Follow.$Shape;

                /**
                 * Decodes a Follow message from the specified reader or buffer, length delimited.
                 * @param reader Reader or buffer to decode from
                 * @returns {ectp.conformance.v1.Follow & ectp.conformance.v1.Follow.$Shape} Follow
                 * @throws {Error} If the payload is not a reader or valid buffer
                 * @throws {$protobuf.util.ProtocolError} If required fields are missing
                 */
                static decodeDelimited(reader: ($protobuf.Reader|Uint8Array)): ectp.conformance.v1.Follow & ectp.conformance.v1.Follow.$Shape;

                /**
                 * Verifies a Follow message.
                 * @param message Plain object to verify
                 * @returns `null` if valid, otherwise the reason why it is not
                 */
                static verify(message: { [k: string]: any }): (string|null);

                /**
                 * Creates a Follow message from a plain object. Also converts values to their respective internal types.
                 * @param object Plain object
                 * @returns Follow
                 */
                static fromObject(object: { [k: string]: any }): ectp.conformance.v1.Follow;

                /**
                 * Creates a plain object from a Follow message. Also converts values to other types if specified.
                 * @param message Follow
                 * @param [options] Conversion options
                 * @returns Plain object
                 */
                static toObject(message: ectp.conformance.v1.Follow, options?: $protobuf.IConversionOptions): { [k: string]: any };

                /**
                 * Converts this Follow to JSON.
                 * @returns JSON object
                 */
                toJSON(): { [k: string]: any };

                /**
                 * Gets the type url for Follow
                 * @param [prefix] Custom type url prefix, defaults to `"type.googleapis.com"`
                 * @returns The type url
                 */
                static getTypeUrl(prefix?: string): string;
            }

            namespace Follow {

                /** Properties of a Follow. */
                interface $Properties {

                    /** The producer's peer id. */
                    producerId?: (string|null|undefined);

                    /**
                     * How to reach the producer on a transport that loads a peer's metadata
                     * before sending to it. Absent: the runner's transport needs none.
                     */
                    connection?: (ectp.conformance.v1.ProducerConnection.$Properties|null|undefined);

                    /** Unknown fields preserved while decoding when enabled */
                    $unknowns?: Uint8Array[];
                }

                /** Shape of a Follow. */
                type $Shape = ectp.conformance.v1.Follow.$Properties;
            }

            /**
             * Properties of a ProducerConnection.
             * @deprecated Use ectp.conformance.v1.ProducerConnection.$Properties instead.
             */
            interface IProducerConnection extends ectp.conformance.v1.ProducerConnection.$Properties {
            }

            /** A producer's epoch and transport metadata (its Hello's transport_metadata). */
            class ProducerConnection {

                /**
                 * Constructs a new ProducerConnection.
                 * @param [properties] Properties to set
                 */
                constructor(properties?: ectp.conformance.v1.ProducerConnection.$Properties);

                /** Unknown fields preserved while decoding when enabled */
                $unknowns?: Uint8Array[];

                /**
                 * The producer's epoch (> 0; the runner never sends 0, and a testee MAY
                 * answer a Follow with epoch 0 with Error).
                 */
                epoch: number;

                /** The producer's transport metadata for that epoch. */
                metadata: Uint8Array;

                /**
                 * Creates a new ProducerConnection instance using the specified properties.
                 * @param [properties] Properties to set
                 * @returns ProducerConnection instance
                 */
                static create(properties: ectp.conformance.v1.ProducerConnection.$Shape): ectp.conformance.v1.ProducerConnection & ectp.conformance.v1.ProducerConnection.$Shape;
                static create(properties?: ectp.conformance.v1.ProducerConnection.$Properties): ectp.conformance.v1.ProducerConnection;

                /**
                 * Encodes the specified ProducerConnection message. Does not implicitly {@link ectp.conformance.v1.ProducerConnection.verify|verify} messages.
                 * @param message ProducerConnection message or plain object to encode
                 * @param [writer] Writer to encode to
                 * @returns Writer
                 */
                static encode(message: ectp.conformance.v1.ProducerConnection.$Properties, writer?: $protobuf.Writer): $protobuf.Writer;

                /**
                 * Encodes the specified ProducerConnection message, length delimited. Does not implicitly {@link ectp.conformance.v1.ProducerConnection.verify|verify} messages.
                 * @param message ProducerConnection message or plain object to encode
                 * @param [writer] Writer to encode to
                 * @returns Writer
                 */
                static encodeDelimited(message: ectp.conformance.v1.ProducerConnection.$Properties, writer?: $protobuf.Writer): $protobuf.Writer;

                /**
                 * Decodes a ProducerConnection message from the specified reader or buffer.
                 * @param reader Reader or buffer to decode from
                 * @param [length] Message length if known beforehand
                 * @returns {ectp.conformance.v1.ProducerConnection & ectp.conformance.v1.ProducerConnection.$Shape} ProducerConnection
                 * @throws {Error} If the payload is not a reader or valid buffer
                 * @throws {$protobuf.util.ProtocolError} If required fields are missing
                 */
                static decode(reader: ($protobuf.Reader|Uint8Array), length?: number): ectp.conformance.v1.ProducerConnection & ectp.conformance.v1.ProducerConnection.$Shape;

                /**
                 * Decodes a ProducerConnection message from the specified reader or buffer, length delimited.
                 * @param reader Reader or buffer to decode from
                 * @returns {ectp.conformance.v1.ProducerConnection & ectp.conformance.v1.ProducerConnection.$Shape} ProducerConnection
                 * @throws {Error} If the payload is not a reader or valid buffer
                 * @throws {$protobuf.util.ProtocolError} If required fields are missing
                 */
                static decodeDelimited(reader: ($protobuf.Reader|Uint8Array)): ectp.conformance.v1.ProducerConnection & ectp.conformance.v1.ProducerConnection.$Shape;

                /**
                 * Verifies a ProducerConnection message.
                 * @param message Plain object to verify
                 * @returns `null` if valid, otherwise the reason why it is not
                 */
                static verify(message: { [k: string]: any }): (string|null);

                /**
                 * Creates a ProducerConnection message from a plain object. Also converts values to their respective internal types.
                 * @param object Plain object
                 * @returns ProducerConnection
                 */
                static fromObject(object: { [k: string]: any }): ectp.conformance.v1.ProducerConnection;

                /**
                 * Creates a plain object from a ProducerConnection message. Also converts values to other types if specified.
                 * @param message ProducerConnection
                 * @param [options] Conversion options
                 * @returns Plain object
                 */
                static toObject(message: ectp.conformance.v1.ProducerConnection, options?: $protobuf.IConversionOptions): { [k: string]: any };

                /**
                 * Converts this ProducerConnection to JSON.
                 * @returns JSON object
                 */
                toJSON(): { [k: string]: any };

                /**
                 * Gets the type url for ProducerConnection
                 * @param [prefix] Custom type url prefix, defaults to `"type.googleapis.com"`
                 * @returns The type url
                 */
                static getTypeUrl(prefix?: string): string;
            }

            namespace ProducerConnection {

                /** Properties of a ProducerConnection. */
                interface $Properties {

                    /**
                     * The producer's epoch (> 0; the runner never sends 0, and a testee MAY
                     * answer a Follow with epoch 0 with Error).
                     */
                    epoch?: (number|null|undefined);

                    /** The producer's transport metadata for that epoch. */
                    metadata?: (Uint8Array|null|undefined);

                    /** Unknown fields preserved while decoding when enabled */
                    $unknowns?: Uint8Array[];
                }

                /** Shape of a ProducerConnection. */
                type $Shape = ectp.conformance.v1.ProducerConnection.$Properties;
            }

            /**
             * Properties of an Unfollow.
             * @deprecated Use ectp.conformance.v1.Unfollow.$Properties instead.
             */
            interface IUnfollow extends ectp.conformance.v1.Unfollow.$Properties {
            }

            /** Stop following `producer_id` and drop its view. */
            class Unfollow {

                /**
                 * Constructs a new Unfollow.
                 * @param [properties] Properties to set
                 */
                constructor(properties?: ectp.conformance.v1.Unfollow.$Properties);

                /** Unknown fields preserved while decoding when enabled */
                $unknowns?: Uint8Array[];

                /** The producer's peer id. */
                producerId: string;

                /**
                 * Creates a new Unfollow instance using the specified properties.
                 * @param [properties] Properties to set
                 * @returns Unfollow instance
                 */
                static create(properties: ectp.conformance.v1.Unfollow.$Shape): ectp.conformance.v1.Unfollow & ectp.conformance.v1.Unfollow.$Shape;
                static create(properties?: ectp.conformance.v1.Unfollow.$Properties): ectp.conformance.v1.Unfollow;

                /**
                 * Encodes the specified Unfollow message. Does not implicitly {@link ectp.conformance.v1.Unfollow.verify|verify} messages.
                 * @param message Unfollow message or plain object to encode
                 * @param [writer] Writer to encode to
                 * @returns Writer
                 */
                static encode(message: ectp.conformance.v1.Unfollow.$Properties, writer?: $protobuf.Writer): $protobuf.Writer;

                /**
                 * Encodes the specified Unfollow message, length delimited. Does not implicitly {@link ectp.conformance.v1.Unfollow.verify|verify} messages.
                 * @param message Unfollow message or plain object to encode
                 * @param [writer] Writer to encode to
                 * @returns Writer
                 */
                static encodeDelimited(message: ectp.conformance.v1.Unfollow.$Properties, writer?: $protobuf.Writer): $protobuf.Writer;

                /**
                 * Decodes an Unfollow message from the specified reader or buffer.
                 * @param reader Reader or buffer to decode from
                 * @param [length] Message length if known beforehand
                 * @returns {ectp.conformance.v1.Unfollow & ectp.conformance.v1.Unfollow.$Shape} Unfollow
                 * @throws {Error} If the payload is not a reader or valid buffer
                 * @throws {$protobuf.util.ProtocolError} If required fields are missing
                 */
                static decode(reader: ($protobuf.Reader|Uint8Array), length?: number): ectp.conformance.v1.Unfollow & ectp.conformance.v1.Unfollow.$Shape;

                /**
                 * Decodes an Unfollow message from the specified reader or buffer, length delimited.
                 * @param reader Reader or buffer to decode from
                 * @returns {ectp.conformance.v1.Unfollow & ectp.conformance.v1.Unfollow.$Shape} Unfollow
                 * @throws {Error} If the payload is not a reader or valid buffer
                 * @throws {$protobuf.util.ProtocolError} If required fields are missing
                 */
                static decodeDelimited(reader: ($protobuf.Reader|Uint8Array)): ectp.conformance.v1.Unfollow & ectp.conformance.v1.Unfollow.$Shape;

                /**
                 * Verifies an Unfollow message.
                 * @param message Plain object to verify
                 * @returns `null` if valid, otherwise the reason why it is not
                 */
                static verify(message: { [k: string]: any }): (string|null);

                /**
                 * Creates an Unfollow message from a plain object. Also converts values to their respective internal types.
                 * @param object Plain object
                 * @returns Unfollow
                 */
                static fromObject(object: { [k: string]: any }): ectp.conformance.v1.Unfollow;

                /**
                 * Creates a plain object from an Unfollow message. Also converts values to other types if specified.
                 * @param message Unfollow
                 * @param [options] Conversion options
                 * @returns Plain object
                 */
                static toObject(message: ectp.conformance.v1.Unfollow, options?: $protobuf.IConversionOptions): { [k: string]: any };

                /**
                 * Converts this Unfollow to JSON.
                 * @returns JSON object
                 */
                toJSON(): { [k: string]: any };

                /**
                 * Gets the type url for Unfollow
                 * @param [prefix] Custom type url prefix, defaults to `"type.googleapis.com"`
                 * @returns The type url
                 */
                static getTypeUrl(prefix?: string): string;
            }

            namespace Unfollow {

                /** Properties of an Unfollow. */
                interface $Properties {

                    /** The producer's peer id. */
                    producerId?: (string|null|undefined);

                    /** Unknown fields preserved while decoding when enabled */
                    $unknowns?: Uint8Array[];
                }

                /** Shape of an Unfollow. */
                type $Shape = ectp.conformance.v1.Unfollow.$Properties;
            }

            /**
             * Properties of a GetView.
             * @deprecated Use ectp.conformance.v1.GetView.$Properties instead.
             */
            interface IGetView extends ectp.conformance.v1.GetView.$Properties {
            }

            /** Report the subscriber's view of `producer_id`. */
            class GetView {

                /**
                 * Constructs a new GetView.
                 * @param [properties] Properties to set
                 */
                constructor(properties?: ectp.conformance.v1.GetView.$Properties);

                /** Unknown fields preserved while decoding when enabled */
                $unknowns?: Uint8Array[];

                /** The producer's peer id. */
                producerId: string;

                /**
                 * Creates a new GetView instance using the specified properties.
                 * @param [properties] Properties to set
                 * @returns GetView instance
                 */
                static create(properties: ectp.conformance.v1.GetView.$Shape): ectp.conformance.v1.GetView & ectp.conformance.v1.GetView.$Shape;
                static create(properties?: ectp.conformance.v1.GetView.$Properties): ectp.conformance.v1.GetView;

                /**
                 * Encodes the specified GetView message. Does not implicitly {@link ectp.conformance.v1.GetView.verify|verify} messages.
                 * @param message GetView message or plain object to encode
                 * @param [writer] Writer to encode to
                 * @returns Writer
                 */
                static encode(message: ectp.conformance.v1.GetView.$Properties, writer?: $protobuf.Writer): $protobuf.Writer;

                /**
                 * Encodes the specified GetView message, length delimited. Does not implicitly {@link ectp.conformance.v1.GetView.verify|verify} messages.
                 * @param message GetView message or plain object to encode
                 * @param [writer] Writer to encode to
                 * @returns Writer
                 */
                static encodeDelimited(message: ectp.conformance.v1.GetView.$Properties, writer?: $protobuf.Writer): $protobuf.Writer;

                /**
                 * Decodes a GetView message from the specified reader or buffer.
                 * @param reader Reader or buffer to decode from
                 * @param [length] Message length if known beforehand
                 * @returns {ectp.conformance.v1.GetView & ectp.conformance.v1.GetView.$Shape} GetView
                 * @throws {Error} If the payload is not a reader or valid buffer
                 * @throws {$protobuf.util.ProtocolError} If required fields are missing
                 */
                static decode(reader: ($protobuf.Reader|Uint8Array), length?: number): ectp.conformance.v1.GetView & ectp.conformance.v1.GetView.$Shape;

                /**
                 * Decodes a GetView message from the specified reader or buffer, length delimited.
                 * @param reader Reader or buffer to decode from
                 * @returns {ectp.conformance.v1.GetView & ectp.conformance.v1.GetView.$Shape} GetView
                 * @throws {Error} If the payload is not a reader or valid buffer
                 * @throws {$protobuf.util.ProtocolError} If required fields are missing
                 */
                static decodeDelimited(reader: ($protobuf.Reader|Uint8Array)): ectp.conformance.v1.GetView & ectp.conformance.v1.GetView.$Shape;

                /**
                 * Verifies a GetView message.
                 * @param message Plain object to verify
                 * @returns `null` if valid, otherwise the reason why it is not
                 */
                static verify(message: { [k: string]: any }): (string|null);

                /**
                 * Creates a GetView message from a plain object. Also converts values to their respective internal types.
                 * @param object Plain object
                 * @returns GetView
                 */
                static fromObject(object: { [k: string]: any }): ectp.conformance.v1.GetView;

                /**
                 * Creates a plain object from a GetView message. Also converts values to other types if specified.
                 * @param message GetView
                 * @param [options] Conversion options
                 * @returns Plain object
                 */
                static toObject(message: ectp.conformance.v1.GetView, options?: $protobuf.IConversionOptions): { [k: string]: any };

                /**
                 * Converts this GetView to JSON.
                 * @returns JSON object
                 */
                toJSON(): { [k: string]: any };

                /**
                 * Gets the type url for GetView
                 * @param [prefix] Custom type url prefix, defaults to `"type.googleapis.com"`
                 * @returns The type url
                 */
                static getTypeUrl(prefix?: string): string;
            }

            namespace GetView {

                /** Properties of a GetView. */
                interface $Properties {

                    /** The producer's peer id. */
                    producerId?: (string|null|undefined);

                    /** Unknown fields preserved while decoding when enabled */
                    $unknowns?: Uint8Array[];
                }

                /** Shape of a GetView. */
                type $Shape = ectp.conformance.v1.GetView.$Properties;
            }

            /**
             * Properties of a ViewResult.
             * @deprecated Use ectp.conformance.v1.ViewResult.$Properties instead.
             */
            interface IViewResult extends ectp.conformance.v1.ViewResult.$Properties {
            }

            /** A subscriber's view of one producer. */
            class ViewResult {

                /**
                 * Constructs a new ViewResult.
                 * @param [properties] Properties to set
                 */
                constructor(properties?: ectp.conformance.v1.ViewResult.$Properties);

                /** Unknown fields preserved while decoding when enabled */
                $unknowns?: Uint8Array[];

                /**
                 * True once a snapshot of the producer's current epoch has been applied
                 * (the view then reflects it and every batch applied after it); false
                 * before, or when the producer is not followed.
                 */
                synced: boolean;

                /**
                 * The producer's ready items as of the last batch applied, in any order,
                 * as the producer described them. Empty when not synced.
                 */
                items: ectp.v1.ItemDescriptor.$Properties[];

                /**
                 * Creates a new ViewResult instance using the specified properties.
                 * @param [properties] Properties to set
                 * @returns ViewResult instance
                 */
                static create(properties: ectp.conformance.v1.ViewResult.$Shape): ectp.conformance.v1.ViewResult & ectp.conformance.v1.ViewResult.$Shape;
                static create(properties?: ectp.conformance.v1.ViewResult.$Properties): ectp.conformance.v1.ViewResult;

                /**
                 * Encodes the specified ViewResult message. Does not implicitly {@link ectp.conformance.v1.ViewResult.verify|verify} messages.
                 * @param message ViewResult message or plain object to encode
                 * @param [writer] Writer to encode to
                 * @returns Writer
                 */
                static encode(message: ectp.conformance.v1.ViewResult.$Properties, writer?: $protobuf.Writer): $protobuf.Writer;

                /**
                 * Encodes the specified ViewResult message, length delimited. Does not implicitly {@link ectp.conformance.v1.ViewResult.verify|verify} messages.
                 * @param message ViewResult message or plain object to encode
                 * @param [writer] Writer to encode to
                 * @returns Writer
                 */
                static encodeDelimited(message: ectp.conformance.v1.ViewResult.$Properties, writer?: $protobuf.Writer): $protobuf.Writer;

                /**
                 * Decodes a ViewResult message from the specified reader or buffer.
                 * @param reader Reader or buffer to decode from
                 * @param [length] Message length if known beforehand
                 * @returns {ectp.conformance.v1.ViewResult & ectp.conformance.v1.ViewResult.$Shape} ViewResult
                 * @throws {Error} If the payload is not a reader or valid buffer
                 * @throws {$protobuf.util.ProtocolError} If required fields are missing
                 */
                static decode(reader: ($protobuf.Reader|Uint8Array), length?: number): ectp.conformance.v1.ViewResult & ectp.conformance.v1.ViewResult.$Shape;

                /**
                 * Decodes a ViewResult message from the specified reader or buffer, length delimited.
                 * @param reader Reader or buffer to decode from
                 * @returns {ectp.conformance.v1.ViewResult & ectp.conformance.v1.ViewResult.$Shape} ViewResult
                 * @throws {Error} If the payload is not a reader or valid buffer
                 * @throws {$protobuf.util.ProtocolError} If required fields are missing
                 */
                static decodeDelimited(reader: ($protobuf.Reader|Uint8Array)): ectp.conformance.v1.ViewResult & ectp.conformance.v1.ViewResult.$Shape;

                /**
                 * Verifies a ViewResult message.
                 * @param message Plain object to verify
                 * @returns `null` if valid, otherwise the reason why it is not
                 */
                static verify(message: { [k: string]: any }): (string|null);

                /**
                 * Creates a ViewResult message from a plain object. Also converts values to their respective internal types.
                 * @param object Plain object
                 * @returns ViewResult
                 */
                static fromObject(object: { [k: string]: any }): ectp.conformance.v1.ViewResult;

                /**
                 * Creates a plain object from a ViewResult message. Also converts values to other types if specified.
                 * @param message ViewResult
                 * @param [options] Conversion options
                 * @returns Plain object
                 */
                static toObject(message: ectp.conformance.v1.ViewResult, options?: $protobuf.IConversionOptions): { [k: string]: any };

                /**
                 * Converts this ViewResult to JSON.
                 * @returns JSON object
                 */
                toJSON(): { [k: string]: any };

                /**
                 * Gets the type url for ViewResult
                 * @param [prefix] Custom type url prefix, defaults to `"type.googleapis.com"`
                 * @returns The type url
                 */
                static getTypeUrl(prefix?: string): string;
            }

            namespace ViewResult {

                /** Properties of a ViewResult. */
                interface $Properties {

                    /**
                     * True once a snapshot of the producer's current epoch has been applied
                     * (the view then reflects it and every batch applied after it); false
                     * before, or when the producer is not followed.
                     */
                    synced?: (boolean|null|undefined);

                    /**
                     * The producer's ready items as of the last batch applied, in any order,
                     * as the producer described them. Empty when not synced.
                     */
                    items?: (ectp.v1.ItemDescriptor.$Properties[]|null|undefined);

                    /** Unknown fields preserved while decoding when enabled */
                    $unknowns?: Uint8Array[];
                }

                /** Shape of a ViewResult. */
                type $Shape = ectp.conformance.v1.ViewResult.$Properties;
            }

            /**
             * Properties of a ConsumerStats.
             * @deprecated Use ectp.conformance.v1.ConsumerStats.$Properties instead.
             */
            interface IConsumerStats extends ectp.conformance.v1.ConsumerStats.$Properties {
            }

            /** Consumer table sizes (the core's ConsumerStats). */
            class ConsumerStats {

                /**
                 * Constructs a new ConsumerStats.
                 * @param [properties] Properties to set
                 */
                constructor(properties?: ectp.conformance.v1.ConsumerStats.$Properties);

                /** Unknown fields preserved while decoding when enabled */
                $unknowns?: Uint8Array[];

                /** Requests admitted and not finished (failed ones included until finished). */
                requests: number;

                /** Live (request, item) budgets [C3]. */
                budgets: number;

                /** Items with a remote fetch in progress [C9]. */
                fetches: number;

                /** Reads started and not settled, quarantined included [I5]. */
                readsInFlight: number;

                /** Quarantined reads [C8]. */
                quarantined: number;

                /**
                 * Grants held (received, not ACKed) [C7], that of a cancelled read still
                 * settling included.
                 */
                grantsHeld: number;

                /** Verified items held for unfinished requests. */
                loadedItems: number;

                /** Destinations allocated and not released [I5]. */
                destinations: number;

                /** Failed requests not yet drained [C6]. */
                undrainedFailures: number;

                /** Peer messages ignored as malformed, late, duplicate or unknown [C10]. */
                ignoredMessages: number;

                /**
                 * Creates a new ConsumerStats instance using the specified properties.
                 * @param [properties] Properties to set
                 * @returns ConsumerStats instance
                 */
                static create(properties: ectp.conformance.v1.ConsumerStats.$Shape): ectp.conformance.v1.ConsumerStats & ectp.conformance.v1.ConsumerStats.$Shape;
                static create(properties?: ectp.conformance.v1.ConsumerStats.$Properties): ectp.conformance.v1.ConsumerStats;

                /**
                 * Encodes the specified ConsumerStats message. Does not implicitly {@link ectp.conformance.v1.ConsumerStats.verify|verify} messages.
                 * @param message ConsumerStats message or plain object to encode
                 * @param [writer] Writer to encode to
                 * @returns Writer
                 */
                static encode(message: ectp.conformance.v1.ConsumerStats.$Properties, writer?: $protobuf.Writer): $protobuf.Writer;

                /**
                 * Encodes the specified ConsumerStats message, length delimited. Does not implicitly {@link ectp.conformance.v1.ConsumerStats.verify|verify} messages.
                 * @param message ConsumerStats message or plain object to encode
                 * @param [writer] Writer to encode to
                 * @returns Writer
                 */
                static encodeDelimited(message: ectp.conformance.v1.ConsumerStats.$Properties, writer?: $protobuf.Writer): $protobuf.Writer;

                /**
                 * Decodes a ConsumerStats message from the specified reader or buffer.
                 * @param reader Reader or buffer to decode from
                 * @param [length] Message length if known beforehand
                 * @returns {ectp.conformance.v1.ConsumerStats & ectp.conformance.v1.ConsumerStats.$Shape} ConsumerStats
                 * @throws {Error} If the payload is not a reader or valid buffer
                 * @throws {$protobuf.util.ProtocolError} If required fields are missing
                 */
                static decode(reader: ($protobuf.Reader|Uint8Array), length?: number): ectp.conformance.v1.ConsumerStats & ectp.conformance.v1.ConsumerStats.$Shape;

                /**
                 * Decodes a ConsumerStats message from the specified reader or buffer, length delimited.
                 * @param reader Reader or buffer to decode from
                 * @returns {ectp.conformance.v1.ConsumerStats & ectp.conformance.v1.ConsumerStats.$Shape} ConsumerStats
                 * @throws {Error} If the payload is not a reader or valid buffer
                 * @throws {$protobuf.util.ProtocolError} If required fields are missing
                 */
                static decodeDelimited(reader: ($protobuf.Reader|Uint8Array)): ectp.conformance.v1.ConsumerStats & ectp.conformance.v1.ConsumerStats.$Shape;

                /**
                 * Verifies a ConsumerStats message.
                 * @param message Plain object to verify
                 * @returns `null` if valid, otherwise the reason why it is not
                 */
                static verify(message: { [k: string]: any }): (string|null);

                /**
                 * Creates a ConsumerStats message from a plain object. Also converts values to their respective internal types.
                 * @param object Plain object
                 * @returns ConsumerStats
                 */
                static fromObject(object: { [k: string]: any }): ectp.conformance.v1.ConsumerStats;

                /**
                 * Creates a plain object from a ConsumerStats message. Also converts values to other types if specified.
                 * @param message ConsumerStats
                 * @param [options] Conversion options
                 * @returns Plain object
                 */
                static toObject(message: ectp.conformance.v1.ConsumerStats, options?: $protobuf.IConversionOptions): { [k: string]: any };

                /**
                 * Converts this ConsumerStats to JSON.
                 * @returns JSON object
                 */
                toJSON(): { [k: string]: any };

                /**
                 * Gets the type url for ConsumerStats
                 * @param [prefix] Custom type url prefix, defaults to `"type.googleapis.com"`
                 * @returns The type url
                 */
                static getTypeUrl(prefix?: string): string;
            }

            namespace ConsumerStats {

                /** Properties of a ConsumerStats. */
                interface $Properties {

                    /** Requests admitted and not finished (failed ones included until finished). */
                    requests?: (number|null|undefined);

                    /** Live (request, item) budgets [C3]. */
                    budgets?: (number|null|undefined);

                    /** Items with a remote fetch in progress [C9]. */
                    fetches?: (number|null|undefined);

                    /** Reads started and not settled, quarantined included [I5]. */
                    readsInFlight?: (number|null|undefined);

                    /** Quarantined reads [C8]. */
                    quarantined?: (number|null|undefined);

                    /**
                     * Grants held (received, not ACKed) [C7], that of a cancelled read still
                     * settling included.
                     */
                    grantsHeld?: (number|null|undefined);

                    /** Verified items held for unfinished requests. */
                    loadedItems?: (number|null|undefined);

                    /** Destinations allocated and not released [I5]. */
                    destinations?: (number|null|undefined);

                    /** Failed requests not yet drained [C6]. */
                    undrainedFailures?: (number|null|undefined);

                    /** Peer messages ignored as malformed, late, duplicate or unknown [C10]. */
                    ignoredMessages?: (number|null|undefined);

                    /** Unknown fields preserved while decoding when enabled */
                    $unknowns?: Uint8Array[];
                }

                /** Shape of a ConsumerStats. */
                type $Shape = ectp.conformance.v1.ConsumerStats.$Properties;
            }

            /**
             * Properties of a ProducerStats.
             * @deprecated Use ectp.conformance.v1.ProducerStats.$Properties instead.
             */
            interface IProducerStats extends ectp.conformance.v1.ProducerStats.$Properties {
            }

            /** Producer table sizes (the core's ProducerStats). */
            class ProducerStats {

                /**
                 * Constructs a new ProducerStats.
                 * @param [properties] Properties to set
                 */
                constructor(properties?: ectp.conformance.v1.ProducerStats.$Properties);

                /** Unknown fields preserved while decoding when enabled */
                $unknowns?: Uint8Array[];

                /** Live grants [I3]. */
                grants: number;

                /** Pins held in the store; equals grants at all times [I3]. */
                pins: number;

                /** Bytes pinned by live grants [P5]. */
                pinnedBytes: number;

                /** Peers considered alive [P8]. */
                peers: number;

                /** Event batches held for replay [E2]. */
                replayBuffered: number;

                /** Sequence of the last published batch in this epoch [E1]. */
                eventSequence: number;

                /** Peer messages ignored [C10]. */
                ignoredMessages: number;

                /** True after Shutdown [P7]. */
                shuttingDown: boolean;

                /**
                 * Creates a new ProducerStats instance using the specified properties.
                 * @param [properties] Properties to set
                 * @returns ProducerStats instance
                 */
                static create(properties: ectp.conformance.v1.ProducerStats.$Shape): ectp.conformance.v1.ProducerStats & ectp.conformance.v1.ProducerStats.$Shape;
                static create(properties?: ectp.conformance.v1.ProducerStats.$Properties): ectp.conformance.v1.ProducerStats;

                /**
                 * Encodes the specified ProducerStats message. Does not implicitly {@link ectp.conformance.v1.ProducerStats.verify|verify} messages.
                 * @param message ProducerStats message or plain object to encode
                 * @param [writer] Writer to encode to
                 * @returns Writer
                 */
                static encode(message: ectp.conformance.v1.ProducerStats.$Properties, writer?: $protobuf.Writer): $protobuf.Writer;

                /**
                 * Encodes the specified ProducerStats message, length delimited. Does not implicitly {@link ectp.conformance.v1.ProducerStats.verify|verify} messages.
                 * @param message ProducerStats message or plain object to encode
                 * @param [writer] Writer to encode to
                 * @returns Writer
                 */
                static encodeDelimited(message: ectp.conformance.v1.ProducerStats.$Properties, writer?: $protobuf.Writer): $protobuf.Writer;

                /**
                 * Decodes a ProducerStats message from the specified reader or buffer.
                 * @param reader Reader or buffer to decode from
                 * @param [length] Message length if known beforehand
                 * @returns {ectp.conformance.v1.ProducerStats & ectp.conformance.v1.ProducerStats.$Shape} ProducerStats
                 * @throws {Error} If the payload is not a reader or valid buffer
                 * @throws {$protobuf.util.ProtocolError} If required fields are missing
                 */
                static decode(reader: ($protobuf.Reader|Uint8Array), length?: number): ectp.conformance.v1.ProducerStats & ectp.conformance.v1.ProducerStats.$Shape;

                /**
                 * Decodes a ProducerStats message from the specified reader or buffer, length delimited.
                 * @param reader Reader or buffer to decode from
                 * @returns {ectp.conformance.v1.ProducerStats & ectp.conformance.v1.ProducerStats.$Shape} ProducerStats
                 * @throws {Error} If the payload is not a reader or valid buffer
                 * @throws {$protobuf.util.ProtocolError} If required fields are missing
                 */
                static decodeDelimited(reader: ($protobuf.Reader|Uint8Array)): ectp.conformance.v1.ProducerStats & ectp.conformance.v1.ProducerStats.$Shape;

                /**
                 * Verifies a ProducerStats message.
                 * @param message Plain object to verify
                 * @returns `null` if valid, otherwise the reason why it is not
                 */
                static verify(message: { [k: string]: any }): (string|null);

                /**
                 * Creates a ProducerStats message from a plain object. Also converts values to their respective internal types.
                 * @param object Plain object
                 * @returns ProducerStats
                 */
                static fromObject(object: { [k: string]: any }): ectp.conformance.v1.ProducerStats;

                /**
                 * Creates a plain object from a ProducerStats message. Also converts values to other types if specified.
                 * @param message ProducerStats
                 * @param [options] Conversion options
                 * @returns Plain object
                 */
                static toObject(message: ectp.conformance.v1.ProducerStats, options?: $protobuf.IConversionOptions): { [k: string]: any };

                /**
                 * Converts this ProducerStats to JSON.
                 * @returns JSON object
                 */
                toJSON(): { [k: string]: any };

                /**
                 * Gets the type url for ProducerStats
                 * @param [prefix] Custom type url prefix, defaults to `"type.googleapis.com"`
                 * @returns The type url
                 */
                static getTypeUrl(prefix?: string): string;
            }

            namespace ProducerStats {

                /** Properties of a ProducerStats. */
                interface $Properties {

                    /** Live grants [I3]. */
                    grants?: (number|null|undefined);

                    /** Pins held in the store; equals grants at all times [I3]. */
                    pins?: (number|null|undefined);

                    /** Bytes pinned by live grants [P5]. */
                    pinnedBytes?: (number|null|undefined);

                    /** Peers considered alive [P8]. */
                    peers?: (number|null|undefined);

                    /** Event batches held for replay [E2]. */
                    replayBuffered?: (number|null|undefined);

                    /** Sequence of the last published batch in this epoch [E1]. */
                    eventSequence?: (number|null|undefined);

                    /** Peer messages ignored [C10]. */
                    ignoredMessages?: (number|null|undefined);

                    /** True after Shutdown [P7]. */
                    shuttingDown?: (boolean|null|undefined);

                    /** Unknown fields preserved while decoding when enabled */
                    $unknowns?: Uint8Array[];
                }

                /** Shape of a ProducerStats. */
                type $Shape = ectp.conformance.v1.ProducerStats.$Properties;
            }
        }
    }

    /** Namespace v1. */
    namespace v1 {

        /**
         * Properties of an Envelope.
         * @deprecated Use ectp.v1.Envelope.$Properties instead.
         */
        interface IEnvelope extends ectp.v1.Envelope.$Properties {
        }

        /**
         * One control-plane message between two peers. On a byte stream, envelopes
         * are size-delimited as SPEC.md section 5 ("Framing") says; on a message
         * transport (e.g. NIXL notifications) one notification carries one envelope.
         * Fields 1-3 and `handshake_reject` are frozen across major versions.
         */
        class Envelope {

            /**
             * Constructs a new Envelope.
             * @param [properties] Properties to set
             */
            constructor(properties?: ectp.v1.Envelope.$Properties);

            /** Unknown fields preserved while decoding when enabled */
            $unknowns?: Uint8Array[];

            /**
             * Spec version of the sender [V1]. Required: an envelope without it, or
             * with another major version, is refused before anything else: not acted
             * on, answered with VERSION only when it is a Hello or a ReadRequest
             * (SPEC.md section 6), else ignored and counted (a HandshakeReject is
             * also acted on as a VERSION refusal).
             */
            version?: (ectp.v1.SpecVersion.$Properties|null|undefined);

            /** Stable identity of the sender (its producer or consumer id). Required. */
            senderId: string;

            /**
             * Epoch of the sender: increases on every restart; a lower epoch than one
             * already seen is stale [P8]. Required (> 0).
             */
            senderEpoch: number;

            /**
             * Handshake: the sender's role, capabilities, fingerprint, transport
             * metadata and heartbeat interval (SPEC.md section 4.1).
             */
            hello?: (ectp.v1.Hello.$Properties|null|undefined);

            /** Handshake refusal. */
            handshakeReject?: (ectp.v1.HandshakeReject.$Properties|null|undefined);

            /** Read request (consumer to producer). */
            readRequest?: (ectp.v1.ReadRequest.$Properties|null|undefined);

            /** Read grant (producer to consumer). */
            readGrant?: (ectp.v1.ReadGrant.$Properties|null|undefined);

            /** Read refusal (producer to consumer). */
            readReject?: (ectp.v1.ReadReject.$Properties|null|undefined);

            /** Grant release, the ACK (consumer to producer). */
            readComplete?: (ectp.v1.ReadComplete.$Properties|null|undefined);

            /** Liveness signal, sent every heartbeat interval [P8]. */
            heartbeat?: (ectp.v1.Heartbeat.$Properties|null|undefined);

            /** Events (producer to subscriber). */
            eventBatch?: (ectp.v1.EventBatch.$Properties|null|undefined);

            /** Replay request (subscriber to producer). */
            replayRequest?: (ectp.v1.ReplayRequest.$Properties|null|undefined);

            /** Replay not possible (producer to subscriber). */
            replayUnavailable?: (ectp.v1.ReplayUnavailable.$Properties|null|undefined);

            /** Snapshot request (subscriber to producer). */
            snapshotRequest?: (ectp.v1.SnapshotRequest.$Properties|null|undefined);

            /** Snapshot (producer to subscriber). */
            snapshot?: (ectp.v1.Snapshot.$Properties|null|undefined);

            /** An announcement forwarded over the control plane (optional use). */
            announcement?: (ectp.v1.Announcement.$Properties|null|undefined);

            /**
             * The message. Exactly one is set. An envelope with none set (a message
             * from a newer minor version) is ignored and counted [C10].
             */
            body?: ("hello"|"handshakeReject"|"readRequest"|"readGrant"|"readReject"|"readComplete"|"heartbeat"|"eventBatch"|"replayRequest"|"replayUnavailable"|"snapshotRequest"|"snapshot"|"announcement");

            /**
             * Creates a new Envelope instance using the specified properties.
             * @param [properties] Properties to set
             * @returns Envelope instance
             */
            static create(properties: ectp.v1.Envelope.$Shape): ectp.v1.Envelope & ectp.v1.Envelope.$Shape;
            static create(properties?: ectp.v1.Envelope.$Properties): ectp.v1.Envelope;

            /**
             * Encodes the specified Envelope message. Does not implicitly {@link ectp.v1.Envelope.verify|verify} messages.
             * @param message Envelope message or plain object to encode
             * @param [writer] Writer to encode to
             * @returns Writer
             */
            static encode(message: ectp.v1.Envelope.$Properties, writer?: $protobuf.Writer): $protobuf.Writer;

            /**
             * Encodes the specified Envelope message, length delimited. Does not implicitly {@link ectp.v1.Envelope.verify|verify} messages.
             * @param message Envelope message or plain object to encode
             * @param [writer] Writer to encode to
             * @returns Writer
             */
            static encodeDelimited(message: ectp.v1.Envelope.$Properties, writer?: $protobuf.Writer): $protobuf.Writer;

            /**
             * Decodes an Envelope message from the specified reader or buffer.
             * @param reader Reader or buffer to decode from
             * @param [length] Message length if known beforehand
             * @returns {ectp.v1.Envelope & ectp.v1.Envelope.$Shape} Envelope
             * @throws {Error} If the payload is not a reader or valid buffer
             * @throws {$protobuf.util.ProtocolError} If required fields are missing
             */
            static decode(reader: ($protobuf.Reader|Uint8Array), length?: number): ectp.v1.Envelope & ectp.v1.Envelope.$Shape;

            /**
             * Decodes an Envelope message from the specified reader or buffer, length delimited.
             * @param reader Reader or buffer to decode from
             * @returns {ectp.v1.Envelope & ectp.v1.Envelope.$Shape} Envelope
             * @throws {Error} If the payload is not a reader or valid buffer
             * @throws {$protobuf.util.ProtocolError} If required fields are missing
             */
            static decodeDelimited(reader: ($protobuf.Reader|Uint8Array)): ectp.v1.Envelope & ectp.v1.Envelope.$Shape;

            /**
             * Verifies an Envelope message.
             * @param message Plain object to verify
             * @returns `null` if valid, otherwise the reason why it is not
             */
            static verify(message: { [k: string]: any }): (string|null);

            /**
             * Creates an Envelope message from a plain object. Also converts values to their respective internal types.
             * @param object Plain object
             * @returns Envelope
             */
            static fromObject(object: { [k: string]: any }): ectp.v1.Envelope;

            /**
             * Creates a plain object from an Envelope message. Also converts values to other types if specified.
             * @param message Envelope
             * @param [options] Conversion options
             * @returns Plain object
             */
            static toObject(message: ectp.v1.Envelope, options?: $protobuf.IConversionOptions): { [k: string]: any };

            /**
             * Converts this Envelope to JSON.
             * @returns JSON object
             */
            toJSON(): { [k: string]: any };

            /**
             * Gets the type url for Envelope
             * @param [prefix] Custom type url prefix, defaults to `"type.googleapis.com"`
             * @returns The type url
             */
            static getTypeUrl(prefix?: string): string;
        }

        namespace Envelope {

            /** Properties of an Envelope. */
            interface $Properties {

                /**
                 * Spec version of the sender [V1]. Required: an envelope without it, or
                 * with another major version, is refused before anything else: not acted
                 * on, answered with VERSION only when it is a Hello or a ReadRequest
                 * (SPEC.md section 6), else ignored and counted (a HandshakeReject is
                 * also acted on as a VERSION refusal).
                 */
                version?: (ectp.v1.SpecVersion.$Properties|null|undefined);

                /** Stable identity of the sender (its producer or consumer id). Required. */
                senderId?: (string|null|undefined);

                /**
                 * Epoch of the sender: increases on every restart; a lower epoch than one
                 * already seen is stale [P8]. Required (> 0).
                 */
                senderEpoch?: (number|null|undefined);

                /**
                 * Handshake: the sender's role, capabilities, fingerprint, transport
                 * metadata and heartbeat interval (SPEC.md section 4.1).
                 */
                hello?: (ectp.v1.Hello.$Properties|null|undefined);

                /** Handshake refusal. */
                handshakeReject?: (ectp.v1.HandshakeReject.$Properties|null|undefined);

                /** Read request (consumer to producer). */
                readRequest?: (ectp.v1.ReadRequest.$Properties|null|undefined);

                /** Read grant (producer to consumer). */
                readGrant?: (ectp.v1.ReadGrant.$Properties|null|undefined);

                /** Read refusal (producer to consumer). */
                readReject?: (ectp.v1.ReadReject.$Properties|null|undefined);

                /** Grant release, the ACK (consumer to producer). */
                readComplete?: (ectp.v1.ReadComplete.$Properties|null|undefined);

                /** Liveness signal, sent every heartbeat interval [P8]. */
                heartbeat?: (ectp.v1.Heartbeat.$Properties|null|undefined);

                /** Events (producer to subscriber). */
                eventBatch?: (ectp.v1.EventBatch.$Properties|null|undefined);

                /** Replay request (subscriber to producer). */
                replayRequest?: (ectp.v1.ReplayRequest.$Properties|null|undefined);

                /** Replay not possible (producer to subscriber). */
                replayUnavailable?: (ectp.v1.ReplayUnavailable.$Properties|null|undefined);

                /** Snapshot request (subscriber to producer). */
                snapshotRequest?: (ectp.v1.SnapshotRequest.$Properties|null|undefined);

                /** Snapshot (producer to subscriber). */
                snapshot?: (ectp.v1.Snapshot.$Properties|null|undefined);

                /** An announcement forwarded over the control plane (optional use). */
                announcement?: (ectp.v1.Announcement.$Properties|null|undefined);

                /**
                 * The message. Exactly one is set. An envelope with none set (a message
                 * from a newer minor version) is ignored and counted [C10].
                 */
                body?: ("hello"|"handshakeReject"|"readRequest"|"readGrant"|"readReject"|"readComplete"|"heartbeat"|"eventBatch"|"replayRequest"|"replayUnavailable"|"snapshotRequest"|"snapshot"|"announcement");

                /** Unknown fields preserved while decoding when enabled */
                $unknowns?: Uint8Array[];
            }

            /** Narrowed shape of an Envelope. */
            type $Shape = {
              /** `version`, as documented on this message's `$Properties`. */
              version?: ectp.v1.SpecVersion.$Shape|null;
              /** `senderId`, as documented on this message's `$Properties`. */
              senderId?: string|null;
              /** `senderEpoch`, as documented on this message's `$Properties`. */
              senderEpoch?: number|null;
              /** `hello`, as documented on this message's `$Properties`. */
              hello?: ectp.v1.Hello.$Shape|null;
              /** `handshakeReject`, as documented on this message's `$Properties`. */
              handshakeReject?: ectp.v1.HandshakeReject.$Shape|null;
              /** `readRequest`, as documented on this message's `$Properties`. */
              readRequest?: ectp.v1.ReadRequest.$Shape|null;
              /** `readGrant`, as documented on this message's `$Properties`. */
              readGrant?: ectp.v1.ReadGrant.$Shape|null;
              /** `readReject`, as documented on this message's `$Properties`. */
              readReject?: ectp.v1.ReadReject.$Shape|null;
              /** `readComplete`, as documented on this message's `$Properties`. */
              readComplete?: ectp.v1.ReadComplete.$Shape|null;
              /** `heartbeat`, as documented on this message's `$Properties`. */
              heartbeat?: ectp.v1.Heartbeat.$Shape|null;
              /** `eventBatch`, as documented on this message's `$Properties`. */
              eventBatch?: ectp.v1.EventBatch.$Shape|null;
              /** `replayRequest`, as documented on this message's `$Properties`. */
              replayRequest?: ectp.v1.ReplayRequest.$Shape|null;
              /** `replayUnavailable`, as documented on this message's `$Properties`. */
              replayUnavailable?: ectp.v1.ReplayUnavailable.$Shape|null;
              /** `snapshotRequest`, as documented on this message's `$Properties`. */
              snapshotRequest?: ectp.v1.SnapshotRequest.$Shape|null;
              /** `snapshot`, as documented on this message's `$Properties`. */
              snapshot?: ectp.v1.Snapshot.$Shape|null;
              /** `announcement`, as documented on this message's `$Properties`. */
              announcement?: ectp.v1.Announcement.$Shape|null;
              /** `$unknowns`, as documented on this message's `$Properties`. */
              $unknowns?: Uint8Array[];
            } & (
              ({
                /** `body`, as documented on this message's `$Properties`. */
                body?: undefined;
                /** `hello`, as documented on this message's `$Properties`. */
                hello?: null;
                /** `handshakeReject`, as documented on this message's `$Properties`. */
                handshakeReject?: null;
                /** `readRequest`, as documented on this message's `$Properties`. */
                readRequest?: null;
                /** `readGrant`, as documented on this message's `$Properties`. */
                readGrant?: null;
                /** `readReject`, as documented on this message's `$Properties`. */
                readReject?: null;
                /** `readComplete`, as documented on this message's `$Properties`. */
                readComplete?: null;
                /** `heartbeat`, as documented on this message's `$Properties`. */
                heartbeat?: null;
                /** `eventBatch`, as documented on this message's `$Properties`. */
                eventBatch?: null;
                /** `replayRequest`, as documented on this message's `$Properties`. */
                replayRequest?: null;
                /** `replayUnavailable`, as documented on this message's `$Properties`. */
                replayUnavailable?: null;
                /** `snapshotRequest`, as documented on this message's `$Properties`. */
                snapshotRequest?: null;
                /** `snapshot`, as documented on this message's `$Properties`. */
                snapshot?: null;
                /** `announcement`, as documented on this message's `$Properties`. */
                announcement?: null }|{
                /** `body`, as documented on this message's `$Properties`. */
                body?: "hello";
                /** `hello`, as documented on this message's `$Properties`. */
                hello: ectp.v1.Hello.$Shape;
                /** `handshakeReject`, as documented on this message's `$Properties`. */
                handshakeReject?: null;
                /** `readRequest`, as documented on this message's `$Properties`. */
                readRequest?: null;
                /** `readGrant`, as documented on this message's `$Properties`. */
                readGrant?: null;
                /** `readReject`, as documented on this message's `$Properties`. */
                readReject?: null;
                /** `readComplete`, as documented on this message's `$Properties`. */
                readComplete?: null;
                /** `heartbeat`, as documented on this message's `$Properties`. */
                heartbeat?: null;
                /** `eventBatch`, as documented on this message's `$Properties`. */
                eventBatch?: null;
                /** `replayRequest`, as documented on this message's `$Properties`. */
                replayRequest?: null;
                /** `replayUnavailable`, as documented on this message's `$Properties`. */
                replayUnavailable?: null;
                /** `snapshotRequest`, as documented on this message's `$Properties`. */
                snapshotRequest?: null;
                /** `snapshot`, as documented on this message's `$Properties`. */
                snapshot?: null;
                /** `announcement`, as documented on this message's `$Properties`. */
                announcement?: null }|{
                /** `body`, as documented on this message's `$Properties`. */
                body?: "handshakeReject";
                /** `hello`, as documented on this message's `$Properties`. */
                hello?: null;
                /** `handshakeReject`, as documented on this message's `$Properties`. */
                handshakeReject: ectp.v1.HandshakeReject.$Shape;
                /** `readRequest`, as documented on this message's `$Properties`. */
                readRequest?: null;
                /** `readGrant`, as documented on this message's `$Properties`. */
                readGrant?: null;
                /** `readReject`, as documented on this message's `$Properties`. */
                readReject?: null;
                /** `readComplete`, as documented on this message's `$Properties`. */
                readComplete?: null;
                /** `heartbeat`, as documented on this message's `$Properties`. */
                heartbeat?: null;
                /** `eventBatch`, as documented on this message's `$Properties`. */
                eventBatch?: null;
                /** `replayRequest`, as documented on this message's `$Properties`. */
                replayRequest?: null;
                /** `replayUnavailable`, as documented on this message's `$Properties`. */
                replayUnavailable?: null;
                /** `snapshotRequest`, as documented on this message's `$Properties`. */
                snapshotRequest?: null;
                /** `snapshot`, as documented on this message's `$Properties`. */
                snapshot?: null;
                /** `announcement`, as documented on this message's `$Properties`. */
                announcement?: null }|{
                /** `body`, as documented on this message's `$Properties`. */
                body?: "readRequest";
                /** `hello`, as documented on this message's `$Properties`. */
                hello?: null;
                /** `handshakeReject`, as documented on this message's `$Properties`. */
                handshakeReject?: null;
                /** `readRequest`, as documented on this message's `$Properties`. */
                readRequest: ectp.v1.ReadRequest.$Shape;
                /** `readGrant`, as documented on this message's `$Properties`. */
                readGrant?: null;
                /** `readReject`, as documented on this message's `$Properties`. */
                readReject?: null;
                /** `readComplete`, as documented on this message's `$Properties`. */
                readComplete?: null;
                /** `heartbeat`, as documented on this message's `$Properties`. */
                heartbeat?: null;
                /** `eventBatch`, as documented on this message's `$Properties`. */
                eventBatch?: null;
                /** `replayRequest`, as documented on this message's `$Properties`. */
                replayRequest?: null;
                /** `replayUnavailable`, as documented on this message's `$Properties`. */
                replayUnavailable?: null;
                /** `snapshotRequest`, as documented on this message's `$Properties`. */
                snapshotRequest?: null;
                /** `snapshot`, as documented on this message's `$Properties`. */
                snapshot?: null;
                /** `announcement`, as documented on this message's `$Properties`. */
                announcement?: null }|{
                /** `body`, as documented on this message's `$Properties`. */
                body?: "readGrant";
                /** `hello`, as documented on this message's `$Properties`. */
                hello?: null;
                /** `handshakeReject`, as documented on this message's `$Properties`. */
                handshakeReject?: null;
                /** `readRequest`, as documented on this message's `$Properties`. */
                readRequest?: null;
                /** `readGrant`, as documented on this message's `$Properties`. */
                readGrant: ectp.v1.ReadGrant.$Shape;
                /** `readReject`, as documented on this message's `$Properties`. */
                readReject?: null;
                /** `readComplete`, as documented on this message's `$Properties`. */
                readComplete?: null;
                /** `heartbeat`, as documented on this message's `$Properties`. */
                heartbeat?: null;
                /** `eventBatch`, as documented on this message's `$Properties`. */
                eventBatch?: null;
                /** `replayRequest`, as documented on this message's `$Properties`. */
                replayRequest?: null;
                /** `replayUnavailable`, as documented on this message's `$Properties`. */
                replayUnavailable?: null;
                /** `snapshotRequest`, as documented on this message's `$Properties`. */
                snapshotRequest?: null;
                /** `snapshot`, as documented on this message's `$Properties`. */
                snapshot?: null;
                /** `announcement`, as documented on this message's `$Properties`. */
                announcement?: null }|{
                /** `body`, as documented on this message's `$Properties`. */
                body?: "readReject";
                /** `hello`, as documented on this message's `$Properties`. */
                hello?: null;
                /** `handshakeReject`, as documented on this message's `$Properties`. */
                handshakeReject?: null;
                /** `readRequest`, as documented on this message's `$Properties`. */
                readRequest?: null;
                /** `readGrant`, as documented on this message's `$Properties`. */
                readGrant?: null;
                /** `readReject`, as documented on this message's `$Properties`. */
                readReject: ectp.v1.ReadReject.$Shape;
                /** `readComplete`, as documented on this message's `$Properties`. */
                readComplete?: null;
                /** `heartbeat`, as documented on this message's `$Properties`. */
                heartbeat?: null;
                /** `eventBatch`, as documented on this message's `$Properties`. */
                eventBatch?: null;
                /** `replayRequest`, as documented on this message's `$Properties`. */
                replayRequest?: null;
                /** `replayUnavailable`, as documented on this message's `$Properties`. */
                replayUnavailable?: null;
                /** `snapshotRequest`, as documented on this message's `$Properties`. */
                snapshotRequest?: null;
                /** `snapshot`, as documented on this message's `$Properties`. */
                snapshot?: null;
                /** `announcement`, as documented on this message's `$Properties`. */
                announcement?: null }|{
                /** `body`, as documented on this message's `$Properties`. */
                body?: "readComplete";
                /** `hello`, as documented on this message's `$Properties`. */
                hello?: null;
                /** `handshakeReject`, as documented on this message's `$Properties`. */
                handshakeReject?: null;
                /** `readRequest`, as documented on this message's `$Properties`. */
                readRequest?: null;
                /** `readGrant`, as documented on this message's `$Properties`. */
                readGrant?: null;
                /** `readReject`, as documented on this message's `$Properties`. */
                readReject?: null;
                /** `readComplete`, as documented on this message's `$Properties`. */
                readComplete: ectp.v1.ReadComplete.$Shape;
                /** `heartbeat`, as documented on this message's `$Properties`. */
                heartbeat?: null;
                /** `eventBatch`, as documented on this message's `$Properties`. */
                eventBatch?: null;
                /** `replayRequest`, as documented on this message's `$Properties`. */
                replayRequest?: null;
                /** `replayUnavailable`, as documented on this message's `$Properties`. */
                replayUnavailable?: null;
                /** `snapshotRequest`, as documented on this message's `$Properties`. */
                snapshotRequest?: null;
                /** `snapshot`, as documented on this message's `$Properties`. */
                snapshot?: null;
                /** `announcement`, as documented on this message's `$Properties`. */
                announcement?: null }|{
                /** `body`, as documented on this message's `$Properties`. */
                body?: "heartbeat";
                /** `hello`, as documented on this message's `$Properties`. */
                hello?: null;
                /** `handshakeReject`, as documented on this message's `$Properties`. */
                handshakeReject?: null;
                /** `readRequest`, as documented on this message's `$Properties`. */
                readRequest?: null;
                /** `readGrant`, as documented on this message's `$Properties`. */
                readGrant?: null;
                /** `readReject`, as documented on this message's `$Properties`. */
                readReject?: null;
                /** `readComplete`, as documented on this message's `$Properties`. */
                readComplete?: null;
                /** `heartbeat`, as documented on this message's `$Properties`. */
                heartbeat: ectp.v1.Heartbeat.$Shape;
                /** `eventBatch`, as documented on this message's `$Properties`. */
                eventBatch?: null;
                /** `replayRequest`, as documented on this message's `$Properties`. */
                replayRequest?: null;
                /** `replayUnavailable`, as documented on this message's `$Properties`. */
                replayUnavailable?: null;
                /** `snapshotRequest`, as documented on this message's `$Properties`. */
                snapshotRequest?: null;
                /** `snapshot`, as documented on this message's `$Properties`. */
                snapshot?: null;
                /** `announcement`, as documented on this message's `$Properties`. */
                announcement?: null }|{
                /** `body`, as documented on this message's `$Properties`. */
                body?: "eventBatch";
                /** `hello`, as documented on this message's `$Properties`. */
                hello?: null;
                /** `handshakeReject`, as documented on this message's `$Properties`. */
                handshakeReject?: null;
                /** `readRequest`, as documented on this message's `$Properties`. */
                readRequest?: null;
                /** `readGrant`, as documented on this message's `$Properties`. */
                readGrant?: null;
                /** `readReject`, as documented on this message's `$Properties`. */
                readReject?: null;
                /** `readComplete`, as documented on this message's `$Properties`. */
                readComplete?: null;
                /** `heartbeat`, as documented on this message's `$Properties`. */
                heartbeat?: null;
                /** `eventBatch`, as documented on this message's `$Properties`. */
                eventBatch: ectp.v1.EventBatch.$Shape;
                /** `replayRequest`, as documented on this message's `$Properties`. */
                replayRequest?: null;
                /** `replayUnavailable`, as documented on this message's `$Properties`. */
                replayUnavailable?: null;
                /** `snapshotRequest`, as documented on this message's `$Properties`. */
                snapshotRequest?: null;
                /** `snapshot`, as documented on this message's `$Properties`. */
                snapshot?: null;
                /** `announcement`, as documented on this message's `$Properties`. */
                announcement?: null }|{
                /** `body`, as documented on this message's `$Properties`. */
                body?: "replayRequest";
                /** `hello`, as documented on this message's `$Properties`. */
                hello?: null;
                /** `handshakeReject`, as documented on this message's `$Properties`. */
                handshakeReject?: null;
                /** `readRequest`, as documented on this message's `$Properties`. */
                readRequest?: null;
                /** `readGrant`, as documented on this message's `$Properties`. */
                readGrant?: null;
                /** `readReject`, as documented on this message's `$Properties`. */
                readReject?: null;
                /** `readComplete`, as documented on this message's `$Properties`. */
                readComplete?: null;
                /** `heartbeat`, as documented on this message's `$Properties`. */
                heartbeat?: null;
                /** `eventBatch`, as documented on this message's `$Properties`. */
                eventBatch?: null;
                /** `replayRequest`, as documented on this message's `$Properties`. */
                replayRequest: ectp.v1.ReplayRequest.$Shape;
                /** `replayUnavailable`, as documented on this message's `$Properties`. */
                replayUnavailable?: null;
                /** `snapshotRequest`, as documented on this message's `$Properties`. */
                snapshotRequest?: null;
                /** `snapshot`, as documented on this message's `$Properties`. */
                snapshot?: null;
                /** `announcement`, as documented on this message's `$Properties`. */
                announcement?: null }|{
                /** `body`, as documented on this message's `$Properties`. */
                body?: "replayUnavailable";
                /** `hello`, as documented on this message's `$Properties`. */
                hello?: null;
                /** `handshakeReject`, as documented on this message's `$Properties`. */
                handshakeReject?: null;
                /** `readRequest`, as documented on this message's `$Properties`. */
                readRequest?: null;
                /** `readGrant`, as documented on this message's `$Properties`. */
                readGrant?: null;
                /** `readReject`, as documented on this message's `$Properties`. */
                readReject?: null;
                /** `readComplete`, as documented on this message's `$Properties`. */
                readComplete?: null;
                /** `heartbeat`, as documented on this message's `$Properties`. */
                heartbeat?: null;
                /** `eventBatch`, as documented on this message's `$Properties`. */
                eventBatch?: null;
                /** `replayRequest`, as documented on this message's `$Properties`. */
                replayRequest?: null;
                /** `replayUnavailable`, as documented on this message's `$Properties`. */
                replayUnavailable: ectp.v1.ReplayUnavailable.$Shape;
                /** `snapshotRequest`, as documented on this message's `$Properties`. */
                snapshotRequest?: null;
                /** `snapshot`, as documented on this message's `$Properties`. */
                snapshot?: null;
                /** `announcement`, as documented on this message's `$Properties`. */
                announcement?: null }|{
                /** `body`, as documented on this message's `$Properties`. */
                body?: "snapshotRequest";
                /** `hello`, as documented on this message's `$Properties`. */
                hello?: null;
                /** `handshakeReject`, as documented on this message's `$Properties`. */
                handshakeReject?: null;
                /** `readRequest`, as documented on this message's `$Properties`. */
                readRequest?: null;
                /** `readGrant`, as documented on this message's `$Properties`. */
                readGrant?: null;
                /** `readReject`, as documented on this message's `$Properties`. */
                readReject?: null;
                /** `readComplete`, as documented on this message's `$Properties`. */
                readComplete?: null;
                /** `heartbeat`, as documented on this message's `$Properties`. */
                heartbeat?: null;
                /** `eventBatch`, as documented on this message's `$Properties`. */
                eventBatch?: null;
                /** `replayRequest`, as documented on this message's `$Properties`. */
                replayRequest?: null;
                /** `replayUnavailable`, as documented on this message's `$Properties`. */
                replayUnavailable?: null;
                /** `snapshotRequest`, as documented on this message's `$Properties`. */
                snapshotRequest: ectp.v1.SnapshotRequest.$Shape;
                /** `snapshot`, as documented on this message's `$Properties`. */
                snapshot?: null;
                /** `announcement`, as documented on this message's `$Properties`. */
                announcement?: null }|{
                /** `body`, as documented on this message's `$Properties`. */
                body?: "snapshot";
                /** `hello`, as documented on this message's `$Properties`. */
                hello?: null;
                /** `handshakeReject`, as documented on this message's `$Properties`. */
                handshakeReject?: null;
                /** `readRequest`, as documented on this message's `$Properties`. */
                readRequest?: null;
                /** `readGrant`, as documented on this message's `$Properties`. */
                readGrant?: null;
                /** `readReject`, as documented on this message's `$Properties`. */
                readReject?: null;
                /** `readComplete`, as documented on this message's `$Properties`. */
                readComplete?: null;
                /** `heartbeat`, as documented on this message's `$Properties`. */
                heartbeat?: null;
                /** `eventBatch`, as documented on this message's `$Properties`. */
                eventBatch?: null;
                /** `replayRequest`, as documented on this message's `$Properties`. */
                replayRequest?: null;
                /** `replayUnavailable`, as documented on this message's `$Properties`. */
                replayUnavailable?: null;
                /** `snapshotRequest`, as documented on this message's `$Properties`. */
                snapshotRequest?: null;
                /** `snapshot`, as documented on this message's `$Properties`. */
                snapshot: ectp.v1.Snapshot.$Shape;
                /** `announcement`, as documented on this message's `$Properties`. */
                announcement?: null }|{
                /** `body`, as documented on this message's `$Properties`. */
                body?: "announcement";
                /** `hello`, as documented on this message's `$Properties`. */
                hello?: null;
                /** `handshakeReject`, as documented on this message's `$Properties`. */
                handshakeReject?: null;
                /** `readRequest`, as documented on this message's `$Properties`. */
                readRequest?: null;
                /** `readGrant`, as documented on this message's `$Properties`. */
                readGrant?: null;
                /** `readReject`, as documented on this message's `$Properties`. */
                readReject?: null;
                /** `readComplete`, as documented on this message's `$Properties`. */
                readComplete?: null;
                /** `heartbeat`, as documented on this message's `$Properties`. */
                heartbeat?: null;
                /** `eventBatch`, as documented on this message's `$Properties`. */
                eventBatch?: null;
                /** `replayRequest`, as documented on this message's `$Properties`. */
                replayRequest?: null;
                /** `replayUnavailable`, as documented on this message's `$Properties`. */
                replayUnavailable?: null;
                /** `snapshotRequest`, as documented on this message's `$Properties`. */
                snapshotRequest?: null;
                /** `snapshot`, as documented on this message's `$Properties`. */
                snapshot?: null;
                /** `announcement`, as documented on this message's `$Properties`. */
                announcement: ectp.v1.Announcement.$Shape })
            );
        }

        /**
         * The role a peer plays. Unknown values are treated as ROLE_UNSPECIFIED
         * (refused); a new role needs a new major version.
         */
        enum Role {

            /** Not given. A Hello with this role is rejected as INTERNAL. */
            ROLE_UNSPECIFIED = 0,

            /** Holds items and answers reads (an encoder instance). */
            ROLE_PRODUCER = 1,

            /** Reads items for engine requests (a prefill/decode instance). */
            ROLE_CONSUMER = 2,

            /** Both roles in one peer. */
            ROLE_BOTH = 3
        }

        /**
         * Properties of a Hello.
         * @deprecated Use ectp.v1.Hello.$Properties instead.
         */
        interface IHello extends ectp.v1.Hello.$Properties {
        }

        /**
         * First message a consumer or subscriber sends to each epoch of a producer,
         * and again after its own restart (new epoch), after it declared the
         * producer gone or let it go idle [P8], and with a subscriber's subscription
         * sent again [E2]; a producer sends one only in answer to a Hello, and an
         * answer MUST have role PRODUCER whatever roles its sender plays, so that no
         * answer is answered (SPEC.md section 4.1). The version check comes before
         * anything else [V1][P7].
         */
        class Hello {

            /**
             * Constructs a new Hello.
             * @param [properties] Properties to set
             */
            constructor(properties?: ectp.v1.Hello.$Properties);

            /** Unknown fields preserved while decoding when enabled */
            $unknowns?: Uint8Array[];

            /** Role of the sender. */
            role: ectp.v1.Role;

            /**
             * Optional features, as lowercase dotted names. Unknown names MUST be
             * ignored. Empty: none. "events.v1" (SPEC.md 4.1): from a consumer or a
             * subscriber, it wants EventBatches [E1]; from a producer, it publishes them.
             */
            capabilities: string[];

            /**
             * Compatibility fingerprint the sender serves or expects. Absent: the
             * all-default fingerprint.
             */
            fingerprint?: (ectp.v1.Fingerprint.$Properties|null|undefined);

            /**
             * Transport metadata the receiver needs to reach the sender's memory (e.g.
             * a NIXL agent metadata blob). Loaded once per sender epoch. Empty: the
             * transport needs none.
             */
            transportMetadata: Uint8Array;

            /**
             * Heartbeat interval the sender uses, in milliseconds. 0: the default (2000).
             * The receiver judges the sender's silence by the larger of this and its own
             * interval, counting a value above 60000 as 60000 [P8].
             */
            heartbeatIntervalMs: number;

            /**
             * Creates a new Hello instance using the specified properties.
             * @param [properties] Properties to set
             * @returns Hello instance
             */
            static create(properties: ectp.v1.Hello.$Shape): ectp.v1.Hello & ectp.v1.Hello.$Shape;
            static create(properties?: ectp.v1.Hello.$Properties): ectp.v1.Hello;

            /**
             * Encodes the specified Hello message. Does not implicitly {@link ectp.v1.Hello.verify|verify} messages.
             * @param message Hello message or plain object to encode
             * @param [writer] Writer to encode to
             * @returns Writer
             */
            static encode(message: ectp.v1.Hello.$Properties, writer?: $protobuf.Writer): $protobuf.Writer;

            /**
             * Encodes the specified Hello message, length delimited. Does not implicitly {@link ectp.v1.Hello.verify|verify} messages.
             * @param message Hello message or plain object to encode
             * @param [writer] Writer to encode to
             * @returns Writer
             */
            static encodeDelimited(message: ectp.v1.Hello.$Properties, writer?: $protobuf.Writer): $protobuf.Writer;

            /**
             * Decodes a Hello message from the specified reader or buffer.
             * @param reader Reader or buffer to decode from
             * @param [length] Message length if known beforehand
             * @returns {ectp.v1.Hello & ectp.v1.Hello.$Shape} Hello
             * @throws {Error} If the payload is not a reader or valid buffer
             * @throws {$protobuf.util.ProtocolError} If required fields are missing
             */
            static decode(reader: ($protobuf.Reader|Uint8Array), length?: number): ectp.v1.Hello & ectp.v1.Hello.$Shape;

            /**
             * Decodes a Hello message from the specified reader or buffer, length delimited.
             * @param reader Reader or buffer to decode from
             * @returns {ectp.v1.Hello & ectp.v1.Hello.$Shape} Hello
             * @throws {Error} If the payload is not a reader or valid buffer
             * @throws {$protobuf.util.ProtocolError} If required fields are missing
             */
            static decodeDelimited(reader: ($protobuf.Reader|Uint8Array)): ectp.v1.Hello & ectp.v1.Hello.$Shape;

            /**
             * Verifies a Hello message.
             * @param message Plain object to verify
             * @returns `null` if valid, otherwise the reason why it is not
             */
            static verify(message: { [k: string]: any }): (string|null);

            /**
             * Creates a Hello message from a plain object. Also converts values to their respective internal types.
             * @param object Plain object
             * @returns Hello
             */
            static fromObject(object: { [k: string]: any }): ectp.v1.Hello;

            /**
             * Creates a plain object from a Hello message. Also converts values to other types if specified.
             * @param message Hello
             * @param [options] Conversion options
             * @returns Plain object
             */
            static toObject(message: ectp.v1.Hello, options?: $protobuf.IConversionOptions): { [k: string]: any };

            /**
             * Converts this Hello to JSON.
             * @returns JSON object
             */
            toJSON(): { [k: string]: any };

            /**
             * Gets the type url for Hello
             * @param [prefix] Custom type url prefix, defaults to `"type.googleapis.com"`
             * @returns The type url
             */
            static getTypeUrl(prefix?: string): string;
        }

        namespace Hello {

            /** Properties of a Hello. */
            interface $Properties {

                /** Role of the sender. */
                role?: (ectp.v1.Role|null|undefined);

                /**
                 * Optional features, as lowercase dotted names. Unknown names MUST be
                 * ignored. Empty: none. "events.v1" (SPEC.md 4.1): from a consumer or a
                 * subscriber, it wants EventBatches [E1]; from a producer, it publishes them.
                 */
                capabilities?: (string[]|null|undefined);

                /**
                 * Compatibility fingerprint the sender serves or expects. Absent: the
                 * all-default fingerprint.
                 */
                fingerprint?: (ectp.v1.Fingerprint.$Properties|null|undefined);

                /**
                 * Transport metadata the receiver needs to reach the sender's memory (e.g.
                 * a NIXL agent metadata blob). Loaded once per sender epoch. Empty: the
                 * transport needs none.
                 */
                transportMetadata?: (Uint8Array|null|undefined);

                /**
                 * Heartbeat interval the sender uses, in milliseconds. 0: the default (2000).
                 * The receiver judges the sender's silence by the larger of this and its own
                 * interval, counting a value above 60000 as 60000 [P8].
                 */
                heartbeatIntervalMs?: (number|null|undefined);

                /** Unknown fields preserved while decoding when enabled */
                $unknowns?: Uint8Array[];
            }

            /** Shape of a Hello. */
            type $Shape = ectp.v1.Hello.$Properties;
        }

        /**
         * Properties of a HandshakeReject.
         * @deprecated Use ectp.v1.HandshakeReject.$Properties instead.
         */
        interface IHandshakeReject extends ectp.v1.HandshakeReject.$Properties {
        }

        /**
         * A producer's refusal of a Hello (consumers and subscribers answer no Hello),
         * sent instead of its own Hello, after the Hello's transport_metadata is
         * loaded (as for any message to its sender; not for a Hello of another major,
         * whose body is not acted on [V1]).
         * The receiver of a HandshakeReject it does not ignore MUST NOT send
         * ReadRequests to the rejecting epoch of that peer, or to an older one; a
         * greater epoch, seen in an envelope or named by an announcement, refused
         * nothing; nothing within the refused epochs lifts the ban (SPEC.md section
         * 4.2). Fields 1-3
         * are frozen across major versions, so a peer of any version can read a
         * VERSION refusal.
         */
        class HandshakeReject {

            /**
             * Constructs a new HandshakeReject.
             * @param [properties] Properties to set
             */
            constructor(properties?: ectp.v1.HandshakeReject.$Properties);

            /** Unknown fields preserved while decoding when enabled */
            $unknowns?: Uint8Array[];

            /** VERSION, INCOMPATIBLE or INTERNAL. */
            reason: ectp.v1.FailureReason;

            /** Human-readable detail naming what differed. Empty: none. */
            detail: string;

            /** The spec version the rejecting peer speaks. */
            supported?: (ectp.v1.SpecVersion.$Properties|null|undefined);

            /**
             * Creates a new HandshakeReject instance using the specified properties.
             * @param [properties] Properties to set
             * @returns HandshakeReject instance
             */
            static create(properties: ectp.v1.HandshakeReject.$Shape): ectp.v1.HandshakeReject & ectp.v1.HandshakeReject.$Shape;
            static create(properties?: ectp.v1.HandshakeReject.$Properties): ectp.v1.HandshakeReject;

            /**
             * Encodes the specified HandshakeReject message. Does not implicitly {@link ectp.v1.HandshakeReject.verify|verify} messages.
             * @param message HandshakeReject message or plain object to encode
             * @param [writer] Writer to encode to
             * @returns Writer
             */
            static encode(message: ectp.v1.HandshakeReject.$Properties, writer?: $protobuf.Writer): $protobuf.Writer;

            /**
             * Encodes the specified HandshakeReject message, length delimited. Does not implicitly {@link ectp.v1.HandshakeReject.verify|verify} messages.
             * @param message HandshakeReject message or plain object to encode
             * @param [writer] Writer to encode to
             * @returns Writer
             */
            static encodeDelimited(message: ectp.v1.HandshakeReject.$Properties, writer?: $protobuf.Writer): $protobuf.Writer;

            /**
             * Decodes a HandshakeReject message from the specified reader or buffer.
             * @param reader Reader or buffer to decode from
             * @param [length] Message length if known beforehand
             * @returns {ectp.v1.HandshakeReject & ectp.v1.HandshakeReject.$Shape} HandshakeReject
             * @throws {Error} If the payload is not a reader or valid buffer
             * @throws {$protobuf.util.ProtocolError} If required fields are missing
             */
            static decode(reader: ($protobuf.Reader|Uint8Array), length?: number): ectp.v1.HandshakeReject & ectp.v1.HandshakeReject.$Shape;

            /**
             * Decodes a HandshakeReject message from the specified reader or buffer, length delimited.
             * @param reader Reader or buffer to decode from
             * @returns {ectp.v1.HandshakeReject & ectp.v1.HandshakeReject.$Shape} HandshakeReject
             * @throws {Error} If the payload is not a reader or valid buffer
             * @throws {$protobuf.util.ProtocolError} If required fields are missing
             */
            static decodeDelimited(reader: ($protobuf.Reader|Uint8Array)): ectp.v1.HandshakeReject & ectp.v1.HandshakeReject.$Shape;

            /**
             * Verifies a HandshakeReject message.
             * @param message Plain object to verify
             * @returns `null` if valid, otherwise the reason why it is not
             */
            static verify(message: { [k: string]: any }): (string|null);

            /**
             * Creates a HandshakeReject message from a plain object. Also converts values to their respective internal types.
             * @param object Plain object
             * @returns HandshakeReject
             */
            static fromObject(object: { [k: string]: any }): ectp.v1.HandshakeReject;

            /**
             * Creates a plain object from a HandshakeReject message. Also converts values to other types if specified.
             * @param message HandshakeReject
             * @param [options] Conversion options
             * @returns Plain object
             */
            static toObject(message: ectp.v1.HandshakeReject, options?: $protobuf.IConversionOptions): { [k: string]: any };

            /**
             * Converts this HandshakeReject to JSON.
             * @returns JSON object
             */
            toJSON(): { [k: string]: any };

            /**
             * Gets the type url for HandshakeReject
             * @param [prefix] Custom type url prefix, defaults to `"type.googleapis.com"`
             * @returns The type url
             */
            static getTypeUrl(prefix?: string): string;
        }

        namespace HandshakeReject {

            /** Properties of a HandshakeReject. */
            interface $Properties {

                /** VERSION, INCOMPATIBLE or INTERNAL. */
                reason?: (ectp.v1.FailureReason|null|undefined);

                /** Human-readable detail naming what differed. Empty: none. */
                detail?: (string|null|undefined);

                /** The spec version the rejecting peer speaks. */
                supported?: (ectp.v1.SpecVersion.$Properties|null|undefined);

                /** Unknown fields preserved while decoding when enabled */
                $unknowns?: Uint8Array[];
            }

            /** Shape of a HandshakeReject. */
            type $Shape = ectp.v1.HandshakeReject.$Properties;
        }

        /**
         * Properties of a ReadRequest.
         * @deprecated Use ectp.v1.ReadRequest.$Properties instead.
         */
        interface IReadRequest extends ectp.v1.ReadRequest.$Properties {
        }

        /** Consumer to producer: please grant a read of an item. */
        class ReadRequest {

            /**
             * Constructs a new ReadRequest.
             * @param [properties] Properties to set
             */
            constructor(properties?: ectp.v1.ReadRequest.$Properties);

            /** Unknown fields preserved while decoding when enabled */
            $unknowns?: Uint8Array[];

            /**
             * MUST be strictly greater than every attempt id the consumer sent before in
             * this epoch (so > 0); replies echo it. A producer ignores a request whose
             * attempt_id is lower than, and does not re-grant one equal to, the attempt
             * of that consumer's live grant for the same key [P3][C10].
             */
            attemptId: number;

            /** The item wanted. Required. */
            key?: (ectp.v1.ItemKey.$Properties|null|undefined);

            /**
             * The producer epoch the consumer's announcement named [P8]. 0: any epoch.
             * A producer whose epoch differs rejects with EPOCH_CHANGED.
             */
            expectedEpoch: number;

            /**
             * The size the announcement named. 0: unknown. A producer whose item has
             * another size rejects with INTERNAL.
             */
            expectedSizeBytes: number;

            /**
             * Creates a new ReadRequest instance using the specified properties.
             * @param [properties] Properties to set
             * @returns ReadRequest instance
             */
            static create(properties: ectp.v1.ReadRequest.$Shape): ectp.v1.ReadRequest & ectp.v1.ReadRequest.$Shape;
            static create(properties?: ectp.v1.ReadRequest.$Properties): ectp.v1.ReadRequest;

            /**
             * Encodes the specified ReadRequest message. Does not implicitly {@link ectp.v1.ReadRequest.verify|verify} messages.
             * @param message ReadRequest message or plain object to encode
             * @param [writer] Writer to encode to
             * @returns Writer
             */
            static encode(message: ectp.v1.ReadRequest.$Properties, writer?: $protobuf.Writer): $protobuf.Writer;

            /**
             * Encodes the specified ReadRequest message, length delimited. Does not implicitly {@link ectp.v1.ReadRequest.verify|verify} messages.
             * @param message ReadRequest message or plain object to encode
             * @param [writer] Writer to encode to
             * @returns Writer
             */
            static encodeDelimited(message: ectp.v1.ReadRequest.$Properties, writer?: $protobuf.Writer): $protobuf.Writer;

            /**
             * Decodes a ReadRequest message from the specified reader or buffer.
             * @param reader Reader or buffer to decode from
             * @param [length] Message length if known beforehand
             * @returns {ectp.v1.ReadRequest & ectp.v1.ReadRequest.$Shape} ReadRequest
             * @throws {Error} If the payload is not a reader or valid buffer
             * @throws {$protobuf.util.ProtocolError} If required fields are missing
             */
            static decode(reader: ($protobuf.Reader|Uint8Array), length?: number): ectp.v1.ReadRequest & ectp.v1.ReadRequest.$Shape;

            /**
             * Decodes a ReadRequest message from the specified reader or buffer, length delimited.
             * @param reader Reader or buffer to decode from
             * @returns {ectp.v1.ReadRequest & ectp.v1.ReadRequest.$Shape} ReadRequest
             * @throws {Error} If the payload is not a reader or valid buffer
             * @throws {$protobuf.util.ProtocolError} If required fields are missing
             */
            static decodeDelimited(reader: ($protobuf.Reader|Uint8Array)): ectp.v1.ReadRequest & ectp.v1.ReadRequest.$Shape;

            /**
             * Verifies a ReadRequest message.
             * @param message Plain object to verify
             * @returns `null` if valid, otherwise the reason why it is not
             */
            static verify(message: { [k: string]: any }): (string|null);

            /**
             * Creates a ReadRequest message from a plain object. Also converts values to their respective internal types.
             * @param object Plain object
             * @returns ReadRequest
             */
            static fromObject(object: { [k: string]: any }): ectp.v1.ReadRequest;

            /**
             * Creates a plain object from a ReadRequest message. Also converts values to other types if specified.
             * @param message ReadRequest
             * @param [options] Conversion options
             * @returns Plain object
             */
            static toObject(message: ectp.v1.ReadRequest, options?: $protobuf.IConversionOptions): { [k: string]: any };

            /**
             * Converts this ReadRequest to JSON.
             * @returns JSON object
             */
            toJSON(): { [k: string]: any };

            /**
             * Gets the type url for ReadRequest
             * @param [prefix] Custom type url prefix, defaults to `"type.googleapis.com"`
             * @returns The type url
             */
            static getTypeUrl(prefix?: string): string;
        }

        namespace ReadRequest {

            /** Properties of a ReadRequest. */
            interface $Properties {

                /**
                 * MUST be strictly greater than every attempt id the consumer sent before in
                 * this epoch (so > 0); replies echo it. A producer ignores a request whose
                 * attempt_id is lower than, and does not re-grant one equal to, the attempt
                 * of that consumer's live grant for the same key [P3][C10].
                 */
                attemptId?: (number|null|undefined);

                /** The item wanted. Required. */
                key?: (ectp.v1.ItemKey.$Properties|null|undefined);

                /**
                 * The producer epoch the consumer's announcement named [P8]. 0: any epoch.
                 * A producer whose epoch differs rejects with EPOCH_CHANGED.
                 */
                expectedEpoch?: (number|null|undefined);

                /**
                 * The size the announcement named. 0: unknown. A producer whose item has
                 * another size rejects with INTERNAL.
                 */
                expectedSizeBytes?: (number|null|undefined);

                /** Unknown fields preserved while decoding when enabled */
                $unknowns?: Uint8Array[];
            }

            /** Shape of a ReadRequest. */
            type $Shape = ectp.v1.ReadRequest.$Properties;
        }

        /**
         * Properties of a ReadGrant.
         * @deprecated Use ectp.v1.ReadGrant.$Properties instead.
         */
        interface IReadGrant extends ectp.v1.ReadGrant.$Properties {
        }

        /**
         * Producer to consumer: the item is pinned for this consumer under a grant
         * until the consumer's ReadComplete or the lease's end [P2][P3].
         */
        class ReadGrant {

            /**
             * Constructs a new ReadGrant.
             * @param [properties] Properties to set
             */
            constructor(properties?: ectp.v1.ReadGrant.$Properties);

            /** Unknown fields preserved while decoding when enabled */
            $unknowns?: Uint8Array[];

            /** The ReadRequest this answers. */
            attemptId: number;

            /** Unique per producer epoch; the consumer MUST name it in ReadComplete. > 0. */
            grantId: number;

            /**
             * The item, including its current location. It names the granting producer
             * and its current epoch (SPEC.md section 4.4).
             */
            item?: (ectp.v1.ItemDescriptor.$Properties|null|undefined);

            /**
             * Lease in milliseconds, counted by the producer from when it sent the grant.
             * 0: the default (30000).
             */
            leaseMs: number;

            /**
             * Creates a new ReadGrant instance using the specified properties.
             * @param [properties] Properties to set
             * @returns ReadGrant instance
             */
            static create(properties: ectp.v1.ReadGrant.$Shape): ectp.v1.ReadGrant & ectp.v1.ReadGrant.$Shape;
            static create(properties?: ectp.v1.ReadGrant.$Properties): ectp.v1.ReadGrant;

            /**
             * Encodes the specified ReadGrant message. Does not implicitly {@link ectp.v1.ReadGrant.verify|verify} messages.
             * @param message ReadGrant message or plain object to encode
             * @param [writer] Writer to encode to
             * @returns Writer
             */
            static encode(message: ectp.v1.ReadGrant.$Properties, writer?: $protobuf.Writer): $protobuf.Writer;

            /**
             * Encodes the specified ReadGrant message, length delimited. Does not implicitly {@link ectp.v1.ReadGrant.verify|verify} messages.
             * @param message ReadGrant message or plain object to encode
             * @param [writer] Writer to encode to
             * @returns Writer
             */
            static encodeDelimited(message: ectp.v1.ReadGrant.$Properties, writer?: $protobuf.Writer): $protobuf.Writer;

            /**
             * Decodes a ReadGrant message from the specified reader or buffer.
             * @param reader Reader or buffer to decode from
             * @param [length] Message length if known beforehand
             * @returns {ectp.v1.ReadGrant & ectp.v1.ReadGrant.$Shape} ReadGrant
             * @throws {Error} If the payload is not a reader or valid buffer
             * @throws {$protobuf.util.ProtocolError} If required fields are missing
             */
            static decode(reader: ($protobuf.Reader|Uint8Array), length?: number): ectp.v1.ReadGrant & ectp.v1.ReadGrant.$Shape;

            /**
             * Decodes a ReadGrant message from the specified reader or buffer, length delimited.
             * @param reader Reader or buffer to decode from
             * @returns {ectp.v1.ReadGrant & ectp.v1.ReadGrant.$Shape} ReadGrant
             * @throws {Error} If the payload is not a reader or valid buffer
             * @throws {$protobuf.util.ProtocolError} If required fields are missing
             */
            static decodeDelimited(reader: ($protobuf.Reader|Uint8Array)): ectp.v1.ReadGrant & ectp.v1.ReadGrant.$Shape;

            /**
             * Verifies a ReadGrant message.
             * @param message Plain object to verify
             * @returns `null` if valid, otherwise the reason why it is not
             */
            static verify(message: { [k: string]: any }): (string|null);

            /**
             * Creates a ReadGrant message from a plain object. Also converts values to their respective internal types.
             * @param object Plain object
             * @returns ReadGrant
             */
            static fromObject(object: { [k: string]: any }): ectp.v1.ReadGrant;

            /**
             * Creates a plain object from a ReadGrant message. Also converts values to other types if specified.
             * @param message ReadGrant
             * @param [options] Conversion options
             * @returns Plain object
             */
            static toObject(message: ectp.v1.ReadGrant, options?: $protobuf.IConversionOptions): { [k: string]: any };

            /**
             * Converts this ReadGrant to JSON.
             * @returns JSON object
             */
            toJSON(): { [k: string]: any };

            /**
             * Gets the type url for ReadGrant
             * @param [prefix] Custom type url prefix, defaults to `"type.googleapis.com"`
             * @returns The type url
             */
            static getTypeUrl(prefix?: string): string;
        }

        namespace ReadGrant {

            /** Properties of a ReadGrant. */
            interface $Properties {

                /** The ReadRequest this answers. */
                attemptId?: (number|null|undefined);

                /** Unique per producer epoch; the consumer MUST name it in ReadComplete. > 0. */
                grantId?: (number|null|undefined);

                /**
                 * The item, including its current location. It names the granting producer
                 * and its current epoch (SPEC.md section 4.4).
                 */
                item?: (ectp.v1.ItemDescriptor.$Properties|null|undefined);

                /**
                 * Lease in milliseconds, counted by the producer from when it sent the grant.
                 * 0: the default (30000).
                 */
                leaseMs?: (number|null|undefined);

                /** Unknown fields preserved while decoding when enabled */
                $unknowns?: Uint8Array[];
            }

            /** Shape of a ReadGrant. */
            type $Shape = ectp.v1.ReadGrant.$Properties;
        }

        /**
         * Properties of a ReadReject.
         * @deprecated Use ectp.v1.ReadReject.$Properties instead.
         */
        interface IReadReject extends ectp.v1.ReadReject.$Properties {
        }

        /** Producer to consumer: the read is refused. */
        class ReadReject {

            /**
             * Constructs a new ReadReject.
             * @param [properties] Properties to set
             */
            constructor(properties?: ectp.v1.ReadReject.$Properties);

            /** Unknown fields preserved while decoding when enabled */
            $unknowns?: Uint8Array[];

            /** The ReadRequest this answers. */
            attemptId: number;

            /**
             * Why the read is refused (FailureReason, e.g. NOT_READY, NOT_FOUND,
             * OVERLOADED). Unknown values are treated as INTERNAL [V1].
             */
            reason: ectp.v1.FailureReason;

            /**
             * Whether the producer considers the refusal retryable. The consumer uses
             * the SPEC.md table for known reasons and this flag only for unknown ones.
             */
            retryable: boolean;

            /**
             * Earliest sensible retry, in milliseconds from receipt. 0: no hint; the
             * consumer's own backoff applies [C4]. The consumer never retries sooner
             * than its backoff, whatever this says.
             */
            retryAfterMs: number;

            /** Human-readable detail. Empty: none. */
            detail: string;

            /**
             * Creates a new ReadReject instance using the specified properties.
             * @param [properties] Properties to set
             * @returns ReadReject instance
             */
            static create(properties: ectp.v1.ReadReject.$Shape): ectp.v1.ReadReject & ectp.v1.ReadReject.$Shape;
            static create(properties?: ectp.v1.ReadReject.$Properties): ectp.v1.ReadReject;

            /**
             * Encodes the specified ReadReject message. Does not implicitly {@link ectp.v1.ReadReject.verify|verify} messages.
             * @param message ReadReject message or plain object to encode
             * @param [writer] Writer to encode to
             * @returns Writer
             */
            static encode(message: ectp.v1.ReadReject.$Properties, writer?: $protobuf.Writer): $protobuf.Writer;

            /**
             * Encodes the specified ReadReject message, length delimited. Does not implicitly {@link ectp.v1.ReadReject.verify|verify} messages.
             * @param message ReadReject message or plain object to encode
             * @param [writer] Writer to encode to
             * @returns Writer
             */
            static encodeDelimited(message: ectp.v1.ReadReject.$Properties, writer?: $protobuf.Writer): $protobuf.Writer;

            /**
             * Decodes a ReadReject message from the specified reader or buffer.
             * @param reader Reader or buffer to decode from
             * @param [length] Message length if known beforehand
             * @returns {ectp.v1.ReadReject & ectp.v1.ReadReject.$Shape} ReadReject
             * @throws {Error} If the payload is not a reader or valid buffer
             * @throws {$protobuf.util.ProtocolError} If required fields are missing
             */
            static decode(reader: ($protobuf.Reader|Uint8Array), length?: number): ectp.v1.ReadReject & ectp.v1.ReadReject.$Shape;

            /**
             * Decodes a ReadReject message from the specified reader or buffer, length delimited.
             * @param reader Reader or buffer to decode from
             * @returns {ectp.v1.ReadReject & ectp.v1.ReadReject.$Shape} ReadReject
             * @throws {Error} If the payload is not a reader or valid buffer
             * @throws {$protobuf.util.ProtocolError} If required fields are missing
             */
            static decodeDelimited(reader: ($protobuf.Reader|Uint8Array)): ectp.v1.ReadReject & ectp.v1.ReadReject.$Shape;

            /**
             * Verifies a ReadReject message.
             * @param message Plain object to verify
             * @returns `null` if valid, otherwise the reason why it is not
             */
            static verify(message: { [k: string]: any }): (string|null);

            /**
             * Creates a ReadReject message from a plain object. Also converts values to their respective internal types.
             * @param object Plain object
             * @returns ReadReject
             */
            static fromObject(object: { [k: string]: any }): ectp.v1.ReadReject;

            /**
             * Creates a plain object from a ReadReject message. Also converts values to other types if specified.
             * @param message ReadReject
             * @param [options] Conversion options
             * @returns Plain object
             */
            static toObject(message: ectp.v1.ReadReject, options?: $protobuf.IConversionOptions): { [k: string]: any };

            /**
             * Converts this ReadReject to JSON.
             * @returns JSON object
             */
            toJSON(): { [k: string]: any };

            /**
             * Gets the type url for ReadReject
             * @param [prefix] Custom type url prefix, defaults to `"type.googleapis.com"`
             * @returns The type url
             */
            static getTypeUrl(prefix?: string): string;
        }

        namespace ReadReject {

            /** Properties of a ReadReject. */
            interface $Properties {

                /** The ReadRequest this answers. */
                attemptId?: (number|null|undefined);

                /**
                 * Why the read is refused (FailureReason, e.g. NOT_READY, NOT_FOUND,
                 * OVERLOADED). Unknown values are treated as INTERNAL [V1].
                 */
                reason?: (ectp.v1.FailureReason|null|undefined);

                /**
                 * Whether the producer considers the refusal retryable. The consumer uses
                 * the SPEC.md table for known reasons and this flag only for unknown ones.
                 */
                retryable?: (boolean|null|undefined);

                /**
                 * Earliest sensible retry, in milliseconds from receipt. 0: no hint; the
                 * consumer's own backoff applies [C4]. The consumer never retries sooner
                 * than its backoff, whatever this says.
                 */
                retryAfterMs?: (number|null|undefined);

                /** Human-readable detail. Empty: none. */
                detail?: (string|null|undefined);

                /** Unknown fields preserved while decoding when enabled */
                $unknowns?: Uint8Array[];
            }

            /** Shape of a ReadReject. */
            type $Shape = ectp.v1.ReadReject.$Properties;
        }

        /**
         * Status of a finished grant, as reported by the consumer. Unknown values are
         * treated as FAILED; the pin is released all the same.
         */
        enum CompletionStatus {

            /** Not given. Treated as FAILED (the pin is released all the same). */
            COMPLETION_STATUS_UNSPECIFIED = 0,

            /** The bytes were read and verified. */
            COMPLETION_STATUS_OK = 1,

            /**
             * The read failed or the bytes did not verify, or the grant was refused
             * unread (its descriptor or lease deadline failed the checks of SPEC.md
             * section 4.4, steps 2 and 3).
             */
            COMPLETION_STATUS_FAILED = 2,

            /**
             * The consumer no longer wants the item (request finished or cancelled,
             * a grant nobody waits for, a destination pool full) [C7]. A duplicate of a
             * grant it holds is ignored, not released (SPEC.md section 4.4).
             */
            COMPLETION_STATUS_ABANDONED = 3
        }

        /**
         * Properties of a ReadComplete.
         * @deprecated Use ectp.v1.ReadComplete.$Properties instead.
         */
        interface IReadComplete extends ectp.v1.ReadComplete.$Properties {
        }

        /** Consumer to producer: the grant is finished; release its pin (the ACK) [P2]. */
        class ReadComplete {

            /**
             * Constructs a new ReadComplete.
             * @param [properties] Properties to set
             */
            constructor(properties?: ectp.v1.ReadComplete.$Properties);

            /** Unknown fields preserved while decoding when enabled */
            $unknowns?: Uint8Array[];

            /** The grant being released. */
            grantId: number;

            /**
             * How the grant ended (CompletionStatus): OK, FAILED or ABANDONED;
             * UNSPECIFIED and unknown values read as FAILED. The pin is released
             * whichever it is.
             */
            status: ectp.v1.CompletionStatus;

            /** Human-readable detail. Empty: none. */
            detail: string;

            /**
             * Creates a new ReadComplete instance using the specified properties.
             * @param [properties] Properties to set
             * @returns ReadComplete instance
             */
            static create(properties: ectp.v1.ReadComplete.$Shape): ectp.v1.ReadComplete & ectp.v1.ReadComplete.$Shape;
            static create(properties?: ectp.v1.ReadComplete.$Properties): ectp.v1.ReadComplete;

            /**
             * Encodes the specified ReadComplete message. Does not implicitly {@link ectp.v1.ReadComplete.verify|verify} messages.
             * @param message ReadComplete message or plain object to encode
             * @param [writer] Writer to encode to
             * @returns Writer
             */
            static encode(message: ectp.v1.ReadComplete.$Properties, writer?: $protobuf.Writer): $protobuf.Writer;

            /**
             * Encodes the specified ReadComplete message, length delimited. Does not implicitly {@link ectp.v1.ReadComplete.verify|verify} messages.
             * @param message ReadComplete message or plain object to encode
             * @param [writer] Writer to encode to
             * @returns Writer
             */
            static encodeDelimited(message: ectp.v1.ReadComplete.$Properties, writer?: $protobuf.Writer): $protobuf.Writer;

            /**
             * Decodes a ReadComplete message from the specified reader or buffer.
             * @param reader Reader or buffer to decode from
             * @param [length] Message length if known beforehand
             * @returns {ectp.v1.ReadComplete & ectp.v1.ReadComplete.$Shape} ReadComplete
             * @throws {Error} If the payload is not a reader or valid buffer
             * @throws {$protobuf.util.ProtocolError} If required fields are missing
             */
            static decode(reader: ($protobuf.Reader|Uint8Array), length?: number): ectp.v1.ReadComplete & ectp.v1.ReadComplete.$Shape;

            /**
             * Decodes a ReadComplete message from the specified reader or buffer, length delimited.
             * @param reader Reader or buffer to decode from
             * @returns {ectp.v1.ReadComplete & ectp.v1.ReadComplete.$Shape} ReadComplete
             * @throws {Error} If the payload is not a reader or valid buffer
             * @throws {$protobuf.util.ProtocolError} If required fields are missing
             */
            static decodeDelimited(reader: ($protobuf.Reader|Uint8Array)): ectp.v1.ReadComplete & ectp.v1.ReadComplete.$Shape;

            /**
             * Verifies a ReadComplete message.
             * @param message Plain object to verify
             * @returns `null` if valid, otherwise the reason why it is not
             */
            static verify(message: { [k: string]: any }): (string|null);

            /**
             * Creates a ReadComplete message from a plain object. Also converts values to their respective internal types.
             * @param object Plain object
             * @returns ReadComplete
             */
            static fromObject(object: { [k: string]: any }): ectp.v1.ReadComplete;

            /**
             * Creates a plain object from a ReadComplete message. Also converts values to other types if specified.
             * @param message ReadComplete
             * @param [options] Conversion options
             * @returns Plain object
             */
            static toObject(message: ectp.v1.ReadComplete, options?: $protobuf.IConversionOptions): { [k: string]: any };

            /**
             * Converts this ReadComplete to JSON.
             * @returns JSON object
             */
            toJSON(): { [k: string]: any };

            /**
             * Gets the type url for ReadComplete
             * @param [prefix] Custom type url prefix, defaults to `"type.googleapis.com"`
             * @returns The type url
             */
            static getTypeUrl(prefix?: string): string;
        }

        namespace ReadComplete {

            /** Properties of a ReadComplete. */
            interface $Properties {

                /** The grant being released. */
                grantId?: (number|null|undefined);

                /**
                 * How the grant ended (CompletionStatus): OK, FAILED or ABANDONED;
                 * UNSPECIFIED and unknown values read as FAILED. The pin is released
                 * whichever it is.
                 */
                status?: (ectp.v1.CompletionStatus|null|undefined);

                /** Human-readable detail. Empty: none. */
                detail?: (string|null|undefined);

                /** Unknown fields preserved while decoding when enabled */
                $unknowns?: Uint8Array[];
            }

            /** Shape of a ReadComplete. */
            type $Shape = ectp.v1.ReadComplete.$Properties;
        }

        /**
         * Properties of a Heartbeat.
         * @deprecated Use ectp.v1.Heartbeat.$Properties instead.
         */
        interface IHeartbeat extends ectp.v1.Heartbeat.$Properties {
        }

        /**
         * Liveness signal, sent every heartbeat interval to each peer the sender has
         * business with (SPEC.md section 4.7: fetches, grants and reads, subscriptions)
         * [P8]. A peer that hears no valid envelope from the sender's epoch for
         * `heartbeat_misses` (default 3) intervals declares the sender gone. Each
         * interval is the larger of its own and the one the sender's Hello of that
         * epoch announced, its own until that Hello is applied (a subscriber MAY count
         * more; SPEC.md [P8]).
         */
        class Heartbeat {

            /**
             * Constructs a new Heartbeat.
             * @param [properties] Properties to set
             */
            constructor(properties?: ectp.v1.Heartbeat.$Properties);

            /** Unknown fields preserved while decoding when enabled */
            $unknowns?: Uint8Array[];

            /** Sender's count of heartbeats sent in this epoch, starting at 1. Informative. */
            sequence: number;

            /**
             * Creates a new Heartbeat instance using the specified properties.
             * @param [properties] Properties to set
             * @returns Heartbeat instance
             */
            static create(properties: ectp.v1.Heartbeat.$Shape): ectp.v1.Heartbeat & ectp.v1.Heartbeat.$Shape;
            static create(properties?: ectp.v1.Heartbeat.$Properties): ectp.v1.Heartbeat;

            /**
             * Encodes the specified Heartbeat message. Does not implicitly {@link ectp.v1.Heartbeat.verify|verify} messages.
             * @param message Heartbeat message or plain object to encode
             * @param [writer] Writer to encode to
             * @returns Writer
             */
            static encode(message: ectp.v1.Heartbeat.$Properties, writer?: $protobuf.Writer): $protobuf.Writer;

            /**
             * Encodes the specified Heartbeat message, length delimited. Does not implicitly {@link ectp.v1.Heartbeat.verify|verify} messages.
             * @param message Heartbeat message or plain object to encode
             * @param [writer] Writer to encode to
             * @returns Writer
             */
            static encodeDelimited(message: ectp.v1.Heartbeat.$Properties, writer?: $protobuf.Writer): $protobuf.Writer;

            /**
             * Decodes a Heartbeat message from the specified reader or buffer.
             * @param reader Reader or buffer to decode from
             * @param [length] Message length if known beforehand
             * @returns {ectp.v1.Heartbeat & ectp.v1.Heartbeat.$Shape} Heartbeat
             * @throws {Error} If the payload is not a reader or valid buffer
             * @throws {$protobuf.util.ProtocolError} If required fields are missing
             */
            static decode(reader: ($protobuf.Reader|Uint8Array), length?: number): ectp.v1.Heartbeat & ectp.v1.Heartbeat.$Shape;

            /**
             * Decodes a Heartbeat message from the specified reader or buffer, length delimited.
             * @param reader Reader or buffer to decode from
             * @returns {ectp.v1.Heartbeat & ectp.v1.Heartbeat.$Shape} Heartbeat
             * @throws {Error} If the payload is not a reader or valid buffer
             * @throws {$protobuf.util.ProtocolError} If required fields are missing
             */
            static decodeDelimited(reader: ($protobuf.Reader|Uint8Array)): ectp.v1.Heartbeat & ectp.v1.Heartbeat.$Shape;

            /**
             * Verifies a Heartbeat message.
             * @param message Plain object to verify
             * @returns `null` if valid, otherwise the reason why it is not
             */
            static verify(message: { [k: string]: any }): (string|null);

            /**
             * Creates a Heartbeat message from a plain object. Also converts values to their respective internal types.
             * @param object Plain object
             * @returns Heartbeat
             */
            static fromObject(object: { [k: string]: any }): ectp.v1.Heartbeat;

            /**
             * Creates a plain object from a Heartbeat message. Also converts values to other types if specified.
             * @param message Heartbeat
             * @param [options] Conversion options
             * @returns Plain object
             */
            static toObject(message: ectp.v1.Heartbeat, options?: $protobuf.IConversionOptions): { [k: string]: any };

            /**
             * Converts this Heartbeat to JSON.
             * @returns JSON object
             */
            toJSON(): { [k: string]: any };

            /**
             * Gets the type url for Heartbeat
             * @param [prefix] Custom type url prefix, defaults to `"type.googleapis.com"`
             * @returns The type url
             */
            static getTypeUrl(prefix?: string): string;
        }

        namespace Heartbeat {

            /** Properties of a Heartbeat. */
            interface $Properties {

                /** Sender's count of heartbeats sent in this epoch, starting at 1. Informative. */
                sequence?: (number|null|undefined);

                /** Unknown fields preserved while decoding when enabled */
                $unknowns?: Uint8Array[];
            }

            /** Shape of a Heartbeat. */
            type $Shape = ectp.v1.Heartbeat.$Properties;
        }

        /**
         * Properties of a SpecVersion.
         * @deprecated Use ectp.v1.SpecVersion.$Properties instead.
         */
        interface ISpecVersion extends ectp.v1.SpecVersion.$Properties {
        }

        /**
         * The version of the ECTP specification a message was written against [V1].
         *
         * Peers compare `major` first: a different major version is rejected with
         * FAILURE_REASON_VERSION before anything else is looked at. `minor` only
         * informs; a peer MUST accept any minor version of its own major version.
         * An absent SpecVersion (major = 0) is never valid and is rejected as VERSION.
         * This message is frozen across major versions.
         */
        class SpecVersion {

            /**
             * Constructs a new SpecVersion.
             * @param [properties] Properties to set
             */
            constructor(properties?: ectp.v1.SpecVersion.$Properties);

            /** Unknown fields preserved while decoding when enabled */
            $unknowns?: Uint8Array[];

            /** Major version. This file defines major version 1. */
            major: number;

            /** Minor version: backwards-compatible additions within the major version [V2]. */
            minor: number;

            /**
             * Creates a new SpecVersion instance using the specified properties.
             * @param [properties] Properties to set
             * @returns SpecVersion instance
             */
            static create(properties: ectp.v1.SpecVersion.$Shape): ectp.v1.SpecVersion & ectp.v1.SpecVersion.$Shape;
            static create(properties?: ectp.v1.SpecVersion.$Properties): ectp.v1.SpecVersion;

            /**
             * Encodes the specified SpecVersion message. Does not implicitly {@link ectp.v1.SpecVersion.verify|verify} messages.
             * @param message SpecVersion message or plain object to encode
             * @param [writer] Writer to encode to
             * @returns Writer
             */
            static encode(message: ectp.v1.SpecVersion.$Properties, writer?: $protobuf.Writer): $protobuf.Writer;

            /**
             * Encodes the specified SpecVersion message, length delimited. Does not implicitly {@link ectp.v1.SpecVersion.verify|verify} messages.
             * @param message SpecVersion message or plain object to encode
             * @param [writer] Writer to encode to
             * @returns Writer
             */
            static encodeDelimited(message: ectp.v1.SpecVersion.$Properties, writer?: $protobuf.Writer): $protobuf.Writer;

            /**
             * Decodes a SpecVersion message from the specified reader or buffer.
             * @param reader Reader or buffer to decode from
             * @param [length] Message length if known beforehand
             * @returns {ectp.v1.SpecVersion & ectp.v1.SpecVersion.$Shape} SpecVersion
             * @throws {Error} If the payload is not a reader or valid buffer
             * @throws {$protobuf.util.ProtocolError} If required fields are missing
             */
            static decode(reader: ($protobuf.Reader|Uint8Array), length?: number): ectp.v1.SpecVersion & ectp.v1.SpecVersion.$Shape;

            /**
             * Decodes a SpecVersion message from the specified reader or buffer, length delimited.
             * @param reader Reader or buffer to decode from
             * @returns {ectp.v1.SpecVersion & ectp.v1.SpecVersion.$Shape} SpecVersion
             * @throws {Error} If the payload is not a reader or valid buffer
             * @throws {$protobuf.util.ProtocolError} If required fields are missing
             */
            static decodeDelimited(reader: ($protobuf.Reader|Uint8Array)): ectp.v1.SpecVersion & ectp.v1.SpecVersion.$Shape;

            /**
             * Verifies a SpecVersion message.
             * @param message Plain object to verify
             * @returns `null` if valid, otherwise the reason why it is not
             */
            static verify(message: { [k: string]: any }): (string|null);

            /**
             * Creates a SpecVersion message from a plain object. Also converts values to their respective internal types.
             * @param object Plain object
             * @returns SpecVersion
             */
            static fromObject(object: { [k: string]: any }): ectp.v1.SpecVersion;

            /**
             * Creates a plain object from a SpecVersion message. Also converts values to other types if specified.
             * @param message SpecVersion
             * @param [options] Conversion options
             * @returns Plain object
             */
            static toObject(message: ectp.v1.SpecVersion, options?: $protobuf.IConversionOptions): { [k: string]: any };

            /**
             * Converts this SpecVersion to JSON.
             * @returns JSON object
             */
            toJSON(): { [k: string]: any };

            /**
             * Gets the type url for SpecVersion
             * @param [prefix] Custom type url prefix, defaults to `"type.googleapis.com"`
             * @returns The type url
             */
            static getTypeUrl(prefix?: string): string;
        }

        namespace SpecVersion {

            /** Properties of a SpecVersion. */
            interface $Properties {

                /** Major version. This file defines major version 1. */
                major?: (number|null|undefined);

                /** Minor version: backwards-compatible additions within the major version [V2]. */
                minor?: (number|null|undefined);

                /** Unknown fields preserved while decoding when enabled */
                $unknowns?: Uint8Array[];
            }

            /** Shape of a SpecVersion. */
            type $Shape = ectp.v1.SpecVersion.$Properties;
        }

        /**
         * Element type of an encoding tensor.
         *
         * Unknown values received from a newer peer are treated as
         * DTYPE_UNSPECIFIED (the safe default [V1]): the dtype x shape size check is
         * then skipped, but the fingerprint comparison still uses the raw value.
         */
        enum Dtype {

            /** Not given. The dtype x shape size check [C2] is skipped. */
            DTYPE_UNSPECIFIED = 0,

            /** IEEE 754 binary32, 4 bytes. */
            DTYPE_FLOAT32 = 1,

            /** IEEE 754 binary16, 2 bytes. */
            DTYPE_FLOAT16 = 2,

            /** bfloat16, 2 bytes. */
            DTYPE_BFLOAT16 = 3,

            /** 8-bit float, E4M3 layout, 1 byte. */
            DTYPE_FLOAT8_E4M3 = 4,

            /** 8-bit float, E5M2 layout, 1 byte. */
            DTYPE_FLOAT8_E5M2 = 5,

            /** Signed 8-bit integer, 1 byte. */
            DTYPE_INT8 = 6,

            /** Unsigned 8-bit integer, 1 byte. */
            DTYPE_UINT8 = 7,

            /** Signed 32-bit integer, 4 bytes. */
            DTYPE_INT32 = 8,

            /** IEEE 754 binary64, 8 bytes. */
            DTYPE_FLOAT64 = 9
        }

        /**
         * Properties of a Fingerprint.
         * @deprecated Use ectp.v1.Fingerprint.$Properties instead.
         */
        interface IFingerprint extends ectp.v1.Fingerprint.$Properties {
        }

        /**
         * Compatibility fingerprint: what must match for an encoding produced by one
         * instance to be usable by another. Two items whose fingerprints differ are
         * different items, even with the same content hash. Fingerprints are compared
         * field by field; all four fields take part.
         */
        class Fingerprint {

            /**
             * Constructs a new Fingerprint.
             * @param [properties] Properties to set
             */
            constructor(properties?: ectp.v1.Fingerprint.$Properties);

            /** Unknown fields preserved while decoding when enabled */
            $unknowns?: Uint8Array[];

            /**
             * Model identifier, e.g. `Qwen/Qwen3.5-35B-A3B@<revision>`. Empty is allowed
             * but then only matches another empty model.
             */
            model: string;

            /** Element type of the encoding. */
            dtype: ectp.v1.Dtype;

            /** Bytes per row of the encoding (hidden size x element size). 0 = not given. */
            rowBytes: number;

            /** Version of the engine's encoding layout. 0 = not given. */
            layoutVersion: number;

            /**
             * Creates a new Fingerprint instance using the specified properties.
             * @param [properties] Properties to set
             * @returns Fingerprint instance
             */
            static create(properties: ectp.v1.Fingerprint.$Shape): ectp.v1.Fingerprint & ectp.v1.Fingerprint.$Shape;
            static create(properties?: ectp.v1.Fingerprint.$Properties): ectp.v1.Fingerprint;

            /**
             * Encodes the specified Fingerprint message. Does not implicitly {@link ectp.v1.Fingerprint.verify|verify} messages.
             * @param message Fingerprint message or plain object to encode
             * @param [writer] Writer to encode to
             * @returns Writer
             */
            static encode(message: ectp.v1.Fingerprint.$Properties, writer?: $protobuf.Writer): $protobuf.Writer;

            /**
             * Encodes the specified Fingerprint message, length delimited. Does not implicitly {@link ectp.v1.Fingerprint.verify|verify} messages.
             * @param message Fingerprint message or plain object to encode
             * @param [writer] Writer to encode to
             * @returns Writer
             */
            static encodeDelimited(message: ectp.v1.Fingerprint.$Properties, writer?: $protobuf.Writer): $protobuf.Writer;

            /**
             * Decodes a Fingerprint message from the specified reader or buffer.
             * @param reader Reader or buffer to decode from
             * @param [length] Message length if known beforehand
             * @returns {ectp.v1.Fingerprint & ectp.v1.Fingerprint.$Shape} Fingerprint
             * @throws {Error} If the payload is not a reader or valid buffer
             * @throws {$protobuf.util.ProtocolError} If required fields are missing
             */
            static decode(reader: ($protobuf.Reader|Uint8Array), length?: number): ectp.v1.Fingerprint & ectp.v1.Fingerprint.$Shape;

            /**
             * Decodes a Fingerprint message from the specified reader or buffer, length delimited.
             * @param reader Reader or buffer to decode from
             * @returns {ectp.v1.Fingerprint & ectp.v1.Fingerprint.$Shape} Fingerprint
             * @throws {Error} If the payload is not a reader or valid buffer
             * @throws {$protobuf.util.ProtocolError} If required fields are missing
             */
            static decodeDelimited(reader: ($protobuf.Reader|Uint8Array)): ectp.v1.Fingerprint & ectp.v1.Fingerprint.$Shape;

            /**
             * Verifies a Fingerprint message.
             * @param message Plain object to verify
             * @returns `null` if valid, otherwise the reason why it is not
             */
            static verify(message: { [k: string]: any }): (string|null);

            /**
             * Creates a Fingerprint message from a plain object. Also converts values to their respective internal types.
             * @param object Plain object
             * @returns Fingerprint
             */
            static fromObject(object: { [k: string]: any }): ectp.v1.Fingerprint;

            /**
             * Creates a plain object from a Fingerprint message. Also converts values to other types if specified.
             * @param message Fingerprint
             * @param [options] Conversion options
             * @returns Plain object
             */
            static toObject(message: ectp.v1.Fingerprint, options?: $protobuf.IConversionOptions): { [k: string]: any };

            /**
             * Converts this Fingerprint to JSON.
             * @returns JSON object
             */
            toJSON(): { [k: string]: any };

            /**
             * Gets the type url for Fingerprint
             * @param [prefix] Custom type url prefix, defaults to `"type.googleapis.com"`
             * @returns The type url
             */
            static getTypeUrl(prefix?: string): string;
        }

        namespace Fingerprint {

            /** Properties of a Fingerprint. */
            interface $Properties {

                /**
                 * Model identifier, e.g. `Qwen/Qwen3.5-35B-A3B@<revision>`. Empty is allowed
                 * but then only matches another empty model.
                 */
                model?: (string|null|undefined);

                /** Element type of the encoding. */
                dtype?: (ectp.v1.Dtype|null|undefined);

                /** Bytes per row of the encoding (hidden size x element size). 0 = not given. */
                rowBytes?: (number|null|undefined);

                /** Version of the engine's encoding layout. 0 = not given. */
                layoutVersion?: (number|null|undefined);

                /** Unknown fields preserved while decoding when enabled */
                $unknowns?: Uint8Array[];
            }

            /** Shape of a Fingerprint. */
            type $Shape = ectp.v1.Fingerprint.$Properties;
        }

        /**
         * Properties of an ItemKey.
         * @deprecated Use ectp.v1.ItemKey.$Properties instead.
         */
        interface IItemKey extends ectp.v1.ItemKey.$Properties {
        }

        /** Identity of an item: content hash of the media item plus the fingerprint. */
        class ItemKey {

            /**
             * Constructs a new ItemKey.
             * @param [properties] Properties to set
             */
            constructor(properties?: ectp.v1.ItemKey.$Properties);

            /** Unknown fields preserved while decoding when enabled */
            $unknowns?: Uint8Array[];

            /**
             * Content hash of the media item (e.g. the engine's mm_hash). MUST be 1 to
             * 64 bytes; an empty hash makes the key invalid [C2].
             */
            contentHash: Uint8Array;

            /**
             * Compatibility fingerprint. Absent means the all-default fingerprint, which
             * only matches another all-default fingerprint.
             */
            fingerprint?: (ectp.v1.Fingerprint.$Properties|null|undefined);

            /**
             * Creates a new ItemKey instance using the specified properties.
             * @param [properties] Properties to set
             * @returns ItemKey instance
             */
            static create(properties: ectp.v1.ItemKey.$Shape): ectp.v1.ItemKey & ectp.v1.ItemKey.$Shape;
            static create(properties?: ectp.v1.ItemKey.$Properties): ectp.v1.ItemKey;

            /**
             * Encodes the specified ItemKey message. Does not implicitly {@link ectp.v1.ItemKey.verify|verify} messages.
             * @param message ItemKey message or plain object to encode
             * @param [writer] Writer to encode to
             * @returns Writer
             */
            static encode(message: ectp.v1.ItemKey.$Properties, writer?: $protobuf.Writer): $protobuf.Writer;

            /**
             * Encodes the specified ItemKey message, length delimited. Does not implicitly {@link ectp.v1.ItemKey.verify|verify} messages.
             * @param message ItemKey message or plain object to encode
             * @param [writer] Writer to encode to
             * @returns Writer
             */
            static encodeDelimited(message: ectp.v1.ItemKey.$Properties, writer?: $protobuf.Writer): $protobuf.Writer;

            /**
             * Decodes an ItemKey message from the specified reader or buffer.
             * @param reader Reader or buffer to decode from
             * @param [length] Message length if known beforehand
             * @returns {ectp.v1.ItemKey & ectp.v1.ItemKey.$Shape} ItemKey
             * @throws {Error} If the payload is not a reader or valid buffer
             * @throws {$protobuf.util.ProtocolError} If required fields are missing
             */
            static decode(reader: ($protobuf.Reader|Uint8Array), length?: number): ectp.v1.ItemKey & ectp.v1.ItemKey.$Shape;

            /**
             * Decodes an ItemKey message from the specified reader or buffer, length delimited.
             * @param reader Reader or buffer to decode from
             * @returns {ectp.v1.ItemKey & ectp.v1.ItemKey.$Shape} ItemKey
             * @throws {Error} If the payload is not a reader or valid buffer
             * @throws {$protobuf.util.ProtocolError} If required fields are missing
             */
            static decodeDelimited(reader: ($protobuf.Reader|Uint8Array)): ectp.v1.ItemKey & ectp.v1.ItemKey.$Shape;

            /**
             * Verifies an ItemKey message.
             * @param message Plain object to verify
             * @returns `null` if valid, otherwise the reason why it is not
             */
            static verify(message: { [k: string]: any }): (string|null);

            /**
             * Creates an ItemKey message from a plain object. Also converts values to their respective internal types.
             * @param object Plain object
             * @returns ItemKey
             */
            static fromObject(object: { [k: string]: any }): ectp.v1.ItemKey;

            /**
             * Creates a plain object from an ItemKey message. Also converts values to other types if specified.
             * @param message ItemKey
             * @param [options] Conversion options
             * @returns Plain object
             */
            static toObject(message: ectp.v1.ItemKey, options?: $protobuf.IConversionOptions): { [k: string]: any };

            /**
             * Converts this ItemKey to JSON.
             * @returns JSON object
             */
            toJSON(): { [k: string]: any };

            /**
             * Gets the type url for ItemKey
             * @param [prefix] Custom type url prefix, defaults to `"type.googleapis.com"`
             * @returns The type url
             */
            static getTypeUrl(prefix?: string): string;
        }

        namespace ItemKey {

            /** Properties of an ItemKey. */
            interface $Properties {

                /**
                 * Content hash of the media item (e.g. the engine's mm_hash). MUST be 1 to
                 * 64 bytes; an empty hash makes the key invalid [C2].
                 */
                contentHash?: (Uint8Array|null|undefined);

                /**
                 * Compatibility fingerprint. Absent means the all-default fingerprint, which
                 * only matches another all-default fingerprint.
                 */
                fingerprint?: (ectp.v1.Fingerprint.$Properties|null|undefined);

                /** Unknown fields preserved while decoding when enabled */
                $unknowns?: Uint8Array[];
            }

            /** Shape of an ItemKey. */
            type $Shape = ectp.v1.ItemKey.$Properties;
        }

        /** Checksum algorithm of a descriptor's optional checksum [C11]. */
        enum ChecksumAlgorithm {

            /** No checksum. A Checksum message with this algorithm is treated as absent. */
            CHECKSUM_ALGORITHM_UNSPECIFIED = 0,

            /**
             * CRC-32C (Castagnoli, reflected, init and final xor 0xFFFFFFFF) of the
             * item's bytes; `value` holds the 4-byte result in big-endian byte order.
             */
            CHECKSUM_ALGORITHM_CRC32C = 1
        }

        /**
         * Properties of a Checksum.
         * @deprecated Use ectp.v1.Checksum.$Properties instead.
         */
        interface IChecksum extends ectp.v1.Checksum.$Properties {
        }

        /**
         * A checksum of an item's bytes.
         *
         * A consumer that receives an algorithm it does not implement (an unknown
         * value from a newer peer) MUST treat the descriptor as invalid [C2] rather
         * than load unverified bytes.
         */
        class Checksum {

            /**
             * Constructs a new Checksum.
             * @param [properties] Properties to set
             */
            constructor(properties?: ectp.v1.Checksum.$Properties);

            /** Unknown fields preserved while decoding when enabled */
            $unknowns?: Uint8Array[];

            /** Algorithm used. UNSPECIFIED means "no checksum". */
            algorithm: ectp.v1.ChecksumAlgorithm;

            /** The checksum value, in the byte layout the algorithm defines. */
            value: Uint8Array;

            /**
             * Creates a new Checksum instance using the specified properties.
             * @param [properties] Properties to set
             * @returns Checksum instance
             */
            static create(properties: ectp.v1.Checksum.$Shape): ectp.v1.Checksum & ectp.v1.Checksum.$Shape;
            static create(properties?: ectp.v1.Checksum.$Properties): ectp.v1.Checksum;

            /**
             * Encodes the specified Checksum message. Does not implicitly {@link ectp.v1.Checksum.verify|verify} messages.
             * @param message Checksum message or plain object to encode
             * @param [writer] Writer to encode to
             * @returns Writer
             */
            static encode(message: ectp.v1.Checksum.$Properties, writer?: $protobuf.Writer): $protobuf.Writer;

            /**
             * Encodes the specified Checksum message, length delimited. Does not implicitly {@link ectp.v1.Checksum.verify|verify} messages.
             * @param message Checksum message or plain object to encode
             * @param [writer] Writer to encode to
             * @returns Writer
             */
            static encodeDelimited(message: ectp.v1.Checksum.$Properties, writer?: $protobuf.Writer): $protobuf.Writer;

            /**
             * Decodes a Checksum message from the specified reader or buffer.
             * @param reader Reader or buffer to decode from
             * @param [length] Message length if known beforehand
             * @returns {ectp.v1.Checksum & ectp.v1.Checksum.$Shape} Checksum
             * @throws {Error} If the payload is not a reader or valid buffer
             * @throws {$protobuf.util.ProtocolError} If required fields are missing
             */
            static decode(reader: ($protobuf.Reader|Uint8Array), length?: number): ectp.v1.Checksum & ectp.v1.Checksum.$Shape;

            /**
             * Decodes a Checksum message from the specified reader or buffer, length delimited.
             * @param reader Reader or buffer to decode from
             * @returns {ectp.v1.Checksum & ectp.v1.Checksum.$Shape} Checksum
             * @throws {Error} If the payload is not a reader or valid buffer
             * @throws {$protobuf.util.ProtocolError} If required fields are missing
             */
            static decodeDelimited(reader: ($protobuf.Reader|Uint8Array)): ectp.v1.Checksum & ectp.v1.Checksum.$Shape;

            /**
             * Verifies a Checksum message.
             * @param message Plain object to verify
             * @returns `null` if valid, otherwise the reason why it is not
             */
            static verify(message: { [k: string]: any }): (string|null);

            /**
             * Creates a Checksum message from a plain object. Also converts values to their respective internal types.
             * @param object Plain object
             * @returns Checksum
             */
            static fromObject(object: { [k: string]: any }): ectp.v1.Checksum;

            /**
             * Creates a plain object from a Checksum message. Also converts values to other types if specified.
             * @param message Checksum
             * @param [options] Conversion options
             * @returns Plain object
             */
            static toObject(message: ectp.v1.Checksum, options?: $protobuf.IConversionOptions): { [k: string]: any };

            /**
             * Converts this Checksum to JSON.
             * @returns JSON object
             */
            toJSON(): { [k: string]: any };

            /**
             * Gets the type url for Checksum
             * @param [prefix] Custom type url prefix, defaults to `"type.googleapis.com"`
             * @returns The type url
             */
            static getTypeUrl(prefix?: string): string;
        }

        namespace Checksum {

            /** Properties of a Checksum. */
            interface $Properties {

                /** Algorithm used. UNSPECIFIED means "no checksum". */
                algorithm?: (ectp.v1.ChecksumAlgorithm|null|undefined);

                /** The checksum value, in the byte layout the algorithm defines. */
                value?: (Uint8Array|null|undefined);

                /** Unknown fields preserved while decoding when enabled */
                $unknowns?: Uint8Array[];
            }

            /** Shape of a Checksum. */
            type $Shape = ectp.v1.Checksum.$Properties;
        }

        /**
         * Properties of an ItemDescriptor.
         * @deprecated Use ectp.v1.ItemDescriptor.$Properties instead.
         */
        interface IItemDescriptor extends ectp.v1.ItemDescriptor.$Properties {
        }

        /**
         * Everything a consumer needs to read an item and check what it read.
         * Carried in announcements, grants and Stored events.
         */
        class ItemDescriptor {

            /**
             * Constructs a new ItemDescriptor.
             * @param [properties] Properties to set
             */
            constructor(properties?: ectp.v1.ItemDescriptor.$Properties);

            /** Unknown fields preserved while decoding when enabled */
            $unknowns?: Uint8Array[];

            /** Identity of the item. Required; absent makes the descriptor invalid [C2]. */
            key?: (ectp.v1.ItemKey.$Properties|null|undefined);

            /**
             * Size of the item in bytes. MUST be an integer in [1, max_item_bytes] and,
             * when dtype and shape are both given, equal element size x product of
             * shape, computed exactly (never wrapped around) [C2]. Implementations MUST
             * treat values above 2^53 - 1 as invalid.
             */
            sizeBytes: number;

            /** Element type. UNSPECIFIED (absent) skips the dtype x shape check. */
            dtype: ectp.v1.Dtype;

            /** Tensor shape, outermost first. Empty (absent) skips the dtype x shape check. */
            shape: number[];

            /** Optional checksum of the bytes [C11]. Absent: only the size is checked. */
            checksum?: (ectp.v1.Checksum.$Properties|null|undefined);

            /** Stable identity of the producer holding the item. Required (non-empty). */
            producerId: string;

            /**
             * Producer epoch: increases on every producer restart; an epoch lower than
             * one already seen is stale [P8]. Required (> 0).
             */
            epoch: number;

            /**
             * Transport-specific location of the bytes (e.g. a NIXL descriptor list).
             * Opaque to the core. Empty means the producer gave no location; such a
             * descriptor can still be announced, and the grant supplies the location.
             */
            location: Uint8Array;

            /**
             * Creates a new ItemDescriptor instance using the specified properties.
             * @param [properties] Properties to set
             * @returns ItemDescriptor instance
             */
            static create(properties: ectp.v1.ItemDescriptor.$Shape): ectp.v1.ItemDescriptor & ectp.v1.ItemDescriptor.$Shape;
            static create(properties?: ectp.v1.ItemDescriptor.$Properties): ectp.v1.ItemDescriptor;

            /**
             * Encodes the specified ItemDescriptor message. Does not implicitly {@link ectp.v1.ItemDescriptor.verify|verify} messages.
             * @param message ItemDescriptor message or plain object to encode
             * @param [writer] Writer to encode to
             * @returns Writer
             */
            static encode(message: ectp.v1.ItemDescriptor.$Properties, writer?: $protobuf.Writer): $protobuf.Writer;

            /**
             * Encodes the specified ItemDescriptor message, length delimited. Does not implicitly {@link ectp.v1.ItemDescriptor.verify|verify} messages.
             * @param message ItemDescriptor message or plain object to encode
             * @param [writer] Writer to encode to
             * @returns Writer
             */
            static encodeDelimited(message: ectp.v1.ItemDescriptor.$Properties, writer?: $protobuf.Writer): $protobuf.Writer;

            /**
             * Decodes an ItemDescriptor message from the specified reader or buffer.
             * @param reader Reader or buffer to decode from
             * @param [length] Message length if known beforehand
             * @returns {ectp.v1.ItemDescriptor & ectp.v1.ItemDescriptor.$Shape} ItemDescriptor
             * @throws {Error} If the payload is not a reader or valid buffer
             * @throws {$protobuf.util.ProtocolError} If required fields are missing
             */
            static decode(reader: ($protobuf.Reader|Uint8Array), length?: number): ectp.v1.ItemDescriptor & ectp.v1.ItemDescriptor.$Shape;

            /**
             * Decodes an ItemDescriptor message from the specified reader or buffer, length delimited.
             * @param reader Reader or buffer to decode from
             * @returns {ectp.v1.ItemDescriptor & ectp.v1.ItemDescriptor.$Shape} ItemDescriptor
             * @throws {Error} If the payload is not a reader or valid buffer
             * @throws {$protobuf.util.ProtocolError} If required fields are missing
             */
            static decodeDelimited(reader: ($protobuf.Reader|Uint8Array)): ectp.v1.ItemDescriptor & ectp.v1.ItemDescriptor.$Shape;

            /**
             * Verifies an ItemDescriptor message.
             * @param message Plain object to verify
             * @returns `null` if valid, otherwise the reason why it is not
             */
            static verify(message: { [k: string]: any }): (string|null);

            /**
             * Creates an ItemDescriptor message from a plain object. Also converts values to their respective internal types.
             * @param object Plain object
             * @returns ItemDescriptor
             */
            static fromObject(object: { [k: string]: any }): ectp.v1.ItemDescriptor;

            /**
             * Creates a plain object from an ItemDescriptor message. Also converts values to other types if specified.
             * @param message ItemDescriptor
             * @param [options] Conversion options
             * @returns Plain object
             */
            static toObject(message: ectp.v1.ItemDescriptor, options?: $protobuf.IConversionOptions): { [k: string]: any };

            /**
             * Converts this ItemDescriptor to JSON.
             * @returns JSON object
             */
            toJSON(): { [k: string]: any };

            /**
             * Gets the type url for ItemDescriptor
             * @param [prefix] Custom type url prefix, defaults to `"type.googleapis.com"`
             * @returns The type url
             */
            static getTypeUrl(prefix?: string): string;
        }

        namespace ItemDescriptor {

            /** Properties of an ItemDescriptor. */
            interface $Properties {

                /** Identity of the item. Required; absent makes the descriptor invalid [C2]. */
                key?: (ectp.v1.ItemKey.$Properties|null|undefined);

                /**
                 * Size of the item in bytes. MUST be an integer in [1, max_item_bytes] and,
                 * when dtype and shape are both given, equal element size x product of
                 * shape, computed exactly (never wrapped around) [C2]. Implementations MUST
                 * treat values above 2^53 - 1 as invalid.
                 */
                sizeBytes?: (number|null|undefined);

                /** Element type. UNSPECIFIED (absent) skips the dtype x shape check. */
                dtype?: (ectp.v1.Dtype|null|undefined);

                /** Tensor shape, outermost first. Empty (absent) skips the dtype x shape check. */
                shape?: (number[]|null|undefined);

                /** Optional checksum of the bytes [C11]. Absent: only the size is checked. */
                checksum?: (ectp.v1.Checksum.$Properties|null|undefined);

                /** Stable identity of the producer holding the item. Required (non-empty). */
                producerId?: (string|null|undefined);

                /**
                 * Producer epoch: increases on every producer restart; an epoch lower than
                 * one already seen is stale [P8]. Required (> 0).
                 */
                epoch?: (number|null|undefined);

                /**
                 * Transport-specific location of the bytes (e.g. a NIXL descriptor list).
                 * Opaque to the core. Empty means the producer gave no location; such a
                 * descriptor can still be announced, and the grant supplies the location.
                 */
                location?: (Uint8Array|null|undefined);

                /** Unknown fields preserved while decoding when enabled */
                $unknowns?: Uint8Array[];
            }

            /** Shape of an ItemDescriptor. */
            type $Shape = ectp.v1.ItemDescriptor.$Properties;
        }

        /**
         * Properties of an Announcement.
         * @deprecated Use ectp.v1.Announcement.$Properties instead.
         */
        interface IAnnouncement extends ectp.v1.Announcement.$Properties {
        }

        /**
         * Where an encoding lives: returned by the producer to the orchestrator and
         * attached by the orchestrator to a request for a consumer. Announcing never
         * pins the item [P4].
         */
        class Announcement {

            /**
             * Constructs a new Announcement.
             * @param [properties] Properties to set
             */
            constructor(properties?: ectp.v1.Announcement.$Properties);

            /** Unknown fields preserved while decoding when enabled */
            $unknowns?: Uint8Array[];

            /**
             * Version of the spec the announcement was written against [V1]. Absent or
             * another major version makes the announcement invalid [C2].
             */
            version?: (ectp.v1.SpecVersion.$Properties|null|undefined);

            /** The item. Required. */
            item?: (ectp.v1.ItemDescriptor.$Properties|null|undefined);

            /**
             * The producer's transport metadata (e.g. a NIXL agent metadata blob), so a
             * consumer can reach a producer it has not yet shaken hands with. Empty: none
             * (the consumer uses another announcement's of the epoch, or the Hello's).
             * The epoch's Hello's metadata, once it arrives, wins (SPEC.md section 4).
             */
            transportMetadata: Uint8Array;

            /**
             * Creates a new Announcement instance using the specified properties.
             * @param [properties] Properties to set
             * @returns Announcement instance
             */
            static create(properties: ectp.v1.Announcement.$Shape): ectp.v1.Announcement & ectp.v1.Announcement.$Shape;
            static create(properties?: ectp.v1.Announcement.$Properties): ectp.v1.Announcement;

            /**
             * Encodes the specified Announcement message. Does not implicitly {@link ectp.v1.Announcement.verify|verify} messages.
             * @param message Announcement message or plain object to encode
             * @param [writer] Writer to encode to
             * @returns Writer
             */
            static encode(message: ectp.v1.Announcement.$Properties, writer?: $protobuf.Writer): $protobuf.Writer;

            /**
             * Encodes the specified Announcement message, length delimited. Does not implicitly {@link ectp.v1.Announcement.verify|verify} messages.
             * @param message Announcement message or plain object to encode
             * @param [writer] Writer to encode to
             * @returns Writer
             */
            static encodeDelimited(message: ectp.v1.Announcement.$Properties, writer?: $protobuf.Writer): $protobuf.Writer;

            /**
             * Decodes an Announcement message from the specified reader or buffer.
             * @param reader Reader or buffer to decode from
             * @param [length] Message length if known beforehand
             * @returns {ectp.v1.Announcement & ectp.v1.Announcement.$Shape} Announcement
             * @throws {Error} If the payload is not a reader or valid buffer
             * @throws {$protobuf.util.ProtocolError} If required fields are missing
             */
            static decode(reader: ($protobuf.Reader|Uint8Array), length?: number): ectp.v1.Announcement & ectp.v1.Announcement.$Shape;

            /**
             * Decodes an Announcement message from the specified reader or buffer, length delimited.
             * @param reader Reader or buffer to decode from
             * @returns {ectp.v1.Announcement & ectp.v1.Announcement.$Shape} Announcement
             * @throws {Error} If the payload is not a reader or valid buffer
             * @throws {$protobuf.util.ProtocolError} If required fields are missing
             */
            static decodeDelimited(reader: ($protobuf.Reader|Uint8Array)): ectp.v1.Announcement & ectp.v1.Announcement.$Shape;

            /**
             * Verifies an Announcement message.
             * @param message Plain object to verify
             * @returns `null` if valid, otherwise the reason why it is not
             */
            static verify(message: { [k: string]: any }): (string|null);

            /**
             * Creates an Announcement message from a plain object. Also converts values to their respective internal types.
             * @param object Plain object
             * @returns Announcement
             */
            static fromObject(object: { [k: string]: any }): ectp.v1.Announcement;

            /**
             * Creates a plain object from an Announcement message. Also converts values to other types if specified.
             * @param message Announcement
             * @param [options] Conversion options
             * @returns Plain object
             */
            static toObject(message: ectp.v1.Announcement, options?: $protobuf.IConversionOptions): { [k: string]: any };

            /**
             * Converts this Announcement to JSON.
             * @returns JSON object
             */
            toJSON(): { [k: string]: any };

            /**
             * Gets the type url for Announcement
             * @param [prefix] Custom type url prefix, defaults to `"type.googleapis.com"`
             * @returns The type url
             */
            static getTypeUrl(prefix?: string): string;
        }

        namespace Announcement {

            /** Properties of an Announcement. */
            interface $Properties {

                /**
                 * Version of the spec the announcement was written against [V1]. Absent or
                 * another major version makes the announcement invalid [C2].
                 */
                version?: (ectp.v1.SpecVersion.$Properties|null|undefined);

                /** The item. Required. */
                item?: (ectp.v1.ItemDescriptor.$Properties|null|undefined);

                /**
                 * The producer's transport metadata (e.g. a NIXL agent metadata blob), so a
                 * consumer can reach a producer it has not yet shaken hands with. Empty: none
                 * (the consumer uses another announcement's of the epoch, or the Hello's).
                 * The epoch's Hello's metadata, once it arrives, wins (SPEC.md section 4).
                 */
                transportMetadata?: (Uint8Array|null|undefined);

                /** Unknown fields preserved while decoding when enabled */
                $unknowns?: Uint8Array[];
            }

            /** Shape of an Announcement. */
            type $Shape = ectp.v1.Announcement.$Properties;
        }

        /**
         * Why a read was rejected, or why a (request, item) pair failed.
         *
         * Each value is either retryable (the consumer MAY try again inside the wait
         * budget [C4]) or terminal (the remote path for that request and item ends
         * [C5]). The table in spec/SPEC.md section 11 ("Retryable and terminal
         * outcomes") is normative. An unknown value received from a newer peer is
         * terminal, the safe default, unless the ReadReject carrying it is flagged
         * `retryable` ([V1], [C4]).
         */
        enum FailureReason {

            /** Not set. Treated as INTERNAL (terminal). */
            FAILURE_REASON_UNSPECIFIED = 0,

            /** Retryable. The item exists but is not fully written yet [P1]. */
            FAILURE_REASON_NOT_READY = 1,

            /** Terminal. The producer does not hold the item (never stored or evicted) [P1]. */
            FAILURE_REASON_NOT_FOUND = 2,

            /**
             * Retryable. The consumer is over its quota of pinned bytes or grants [P5],
             * or has no local destination memory for the item (SPEC.md section 4.4).
             */
            FAILURE_REASON_OVERLOADED = 3,

            /**
             * Terminal. Compatibility fingerprints differ [P7], or the handshake was
             * refused for its fingerprint.
             */
            FAILURE_REASON_INCOMPATIBLE = 4,

            /** Terminal. Spec major versions differ [V1]. */
            FAILURE_REASON_VERSION = 5,

            /**
             * Terminal. An unexpected error in the peer, a malformed request key, an
             * item whose size differs from the ReadRequest's expected_size_bytes, or an
             * item larger than the consumer's byte quota [P5].
             */
            FAILURE_REASON_INTERNAL = 6,

            /** Terminal. The producer is shutting down [P7]. */
            FAILURE_REASON_SHUTTING_DOWN = 7,

            /** Retryable. No grant or reject arrived within the grant wait timeout [C4]. */
            FAILURE_REASON_GRANT_TIMEOUT = 8,

            /**
             * Retryable before a grant, terminal after one. The peer is unreachable or
             * was declared gone after heartbeat_misses (default 3) missed heartbeat
             * intervals [P8].
             */
            FAILURE_REASON_PEER_UNREACHABLE = 9,

            /** Terminal. The transport reported the read as failed [C11]. */
            FAILURE_REASON_TRANSFER_FAILED = 10,

            /**
             * Terminal. The read outlived the transfer timeout and was quarantined [C8],
             * or its result was handled at or after that deadline [C11].
             */
            FAILURE_REASON_TRANSFER_TIMEOUT = 11,

            /**
             * Terminal. Bytes read differ from size_bytes, the grant's size differs from
             * the announcement's, or the announcement's size differs from its key's
             * loaded or in-flight item [C11].
             */
            FAILURE_REASON_SIZE_MISMATCH = 12,

            /** Terminal. Bytes received do not match the descriptor's checksum [C11]. */
            FAILURE_REASON_CHECKSUM_MISMATCH = 13,

            /** Terminal. The producer's epoch changed under a grant or announcement [P8]. */
            FAILURE_REASON_EPOCH_CHANGED = 14,

            /**
             * Terminal (request outcome only; in a ReadReject treated as INTERNAL). The
             * announcement, or a grant's descriptor, failed validation [C2].
             */
            FAILURE_REASON_INVALID_ANNOUNCEMENT = 15,

            /**
             * Terminal (request outcome only; in a ReadReject treated as INTERNAL). The
             * wait budget ran out [C3].
             */
            FAILURE_REASON_BUDGET_EXHAUSTED = 16,

            /**
             * Terminal (request outcome only; in a ReadReject treated as INTERNAL). No
             * usable announcement and no model input: the item cannot be obtained [C1].
             */
            FAILURE_REASON_UNAVAILABLE = 17,

            /**
             * Terminal. The read completed at or after, or was still in flight at, the lease
             * deadline the consumer computed (so the bytes may have been reused), or a
             * grant's lease deadline was not after its receipt [C11][C8].
             */
            FAILURE_REASON_LEASE_EXPIRED = 18
        }

        /** Why an item left the producer. */
        enum RemovedCause {

            /** Not given; treat as EVICTED (as are unknown values). */
            REMOVED_CAUSE_UNSPECIFIED = 0,

            /** Evicted to make room (it was ready and unpinned) [P6]. */
            REMOVED_CAUSE_EVICTED = 1,

            /** Discarded before it became ready (a failed or abandoned write). */
            REMOVED_CAUSE_DISCARDED = 2
        }

        /** Why a producer dropped everything. */
        enum ClearedCause {

            /** Not given; treat as RESET (as are unknown values). */
            CLEARED_CAUSE_UNSPECIFIED = 0,

            /** The region was reset (every item dropped). */
            CLEARED_CAUSE_RESET = 1,

            /** The producer is shutting down [P7]. */
            CLEARED_CAUSE_SHUTDOWN = 2
        }

        /**
         * Properties of a Stored.
         * @deprecated Use ectp.v1.Stored.$Properties instead.
         */
        interface IStored extends ectp.v1.Stored.$Properties {
        }

        /** An item became ready. */
        class Stored {

            /**
             * Constructs a new Stored.
             * @param [properties] Properties to set
             */
            constructor(properties?: ectp.v1.Stored.$Properties);

            /** Unknown fields preserved while decoding when enabled */
            $unknowns?: Uint8Array[];

            /** The item as it would be announced. */
            item?: (ectp.v1.ItemDescriptor.$Properties|null|undefined);

            /**
             * Creates a new Stored instance using the specified properties.
             * @param [properties] Properties to set
             * @returns Stored instance
             */
            static create(properties: ectp.v1.Stored.$Shape): ectp.v1.Stored & ectp.v1.Stored.$Shape;
            static create(properties?: ectp.v1.Stored.$Properties): ectp.v1.Stored;

            /**
             * Encodes the specified Stored message. Does not implicitly {@link ectp.v1.Stored.verify|verify} messages.
             * @param message Stored message or plain object to encode
             * @param [writer] Writer to encode to
             * @returns Writer
             */
            static encode(message: ectp.v1.Stored.$Properties, writer?: $protobuf.Writer): $protobuf.Writer;

            /**
             * Encodes the specified Stored message, length delimited. Does not implicitly {@link ectp.v1.Stored.verify|verify} messages.
             * @param message Stored message or plain object to encode
             * @param [writer] Writer to encode to
             * @returns Writer
             */
            static encodeDelimited(message: ectp.v1.Stored.$Properties, writer?: $protobuf.Writer): $protobuf.Writer;

            /**
             * Decodes a Stored message from the specified reader or buffer.
             * @param reader Reader or buffer to decode from
             * @param [length] Message length if known beforehand
             * @returns {ectp.v1.Stored & ectp.v1.Stored.$Shape} Stored
             * @throws {Error} If the payload is not a reader or valid buffer
             * @throws {$protobuf.util.ProtocolError} If required fields are missing
             */
            static decode(reader: ($protobuf.Reader|Uint8Array), length?: number): ectp.v1.Stored & ectp.v1.Stored.$Shape;

            /**
             * Decodes a Stored message from the specified reader or buffer, length delimited.
             * @param reader Reader or buffer to decode from
             * @returns {ectp.v1.Stored & ectp.v1.Stored.$Shape} Stored
             * @throws {Error} If the payload is not a reader or valid buffer
             * @throws {$protobuf.util.ProtocolError} If required fields are missing
             */
            static decodeDelimited(reader: ($protobuf.Reader|Uint8Array)): ectp.v1.Stored & ectp.v1.Stored.$Shape;

            /**
             * Verifies a Stored message.
             * @param message Plain object to verify
             * @returns `null` if valid, otherwise the reason why it is not
             */
            static verify(message: { [k: string]: any }): (string|null);

            /**
             * Creates a Stored message from a plain object. Also converts values to their respective internal types.
             * @param object Plain object
             * @returns Stored
             */
            static fromObject(object: { [k: string]: any }): ectp.v1.Stored;

            /**
             * Creates a plain object from a Stored message. Also converts values to other types if specified.
             * @param message Stored
             * @param [options] Conversion options
             * @returns Plain object
             */
            static toObject(message: ectp.v1.Stored, options?: $protobuf.IConversionOptions): { [k: string]: any };

            /**
             * Converts this Stored to JSON.
             * @returns JSON object
             */
            toJSON(): { [k: string]: any };

            /**
             * Gets the type url for Stored
             * @param [prefix] Custom type url prefix, defaults to `"type.googleapis.com"`
             * @returns The type url
             */
            static getTypeUrl(prefix?: string): string;
        }

        namespace Stored {

            /** Properties of a Stored. */
            interface $Properties {

                /** The item as it would be announced. */
                item?: (ectp.v1.ItemDescriptor.$Properties|null|undefined);

                /** Unknown fields preserved while decoding when enabled */
                $unknowns?: Uint8Array[];
            }

            /** Shape of a Stored. */
            type $Shape = ectp.v1.Stored.$Properties;
        }

        /**
         * Properties of a Removed.
         * @deprecated Use ectp.v1.Removed.$Properties instead.
         */
        interface IRemoved extends ectp.v1.Removed.$Properties {
        }

        /** An item was evicted or discarded. */
        class Removed {

            /**
             * Constructs a new Removed.
             * @param [properties] Properties to set
             */
            constructor(properties?: ectp.v1.Removed.$Properties);

            /** Unknown fields preserved while decoding when enabled */
            $unknowns?: Uint8Array[];

            /** The item's key. */
            key?: (ectp.v1.ItemKey.$Properties|null|undefined);

            /**
             * Why it left (RemovedCause): EVICTED to make room, or DISCARDED before it
             * became ready; UNSPECIFIED and unknown values read as EVICTED.
             */
            cause: ectp.v1.RemovedCause;

            /**
             * Creates a new Removed instance using the specified properties.
             * @param [properties] Properties to set
             * @returns Removed instance
             */
            static create(properties: ectp.v1.Removed.$Shape): ectp.v1.Removed & ectp.v1.Removed.$Shape;
            static create(properties?: ectp.v1.Removed.$Properties): ectp.v1.Removed;

            /**
             * Encodes the specified Removed message. Does not implicitly {@link ectp.v1.Removed.verify|verify} messages.
             * @param message Removed message or plain object to encode
             * @param [writer] Writer to encode to
             * @returns Writer
             */
            static encode(message: ectp.v1.Removed.$Properties, writer?: $protobuf.Writer): $protobuf.Writer;

            /**
             * Encodes the specified Removed message, length delimited. Does not implicitly {@link ectp.v1.Removed.verify|verify} messages.
             * @param message Removed message or plain object to encode
             * @param [writer] Writer to encode to
             * @returns Writer
             */
            static encodeDelimited(message: ectp.v1.Removed.$Properties, writer?: $protobuf.Writer): $protobuf.Writer;

            /**
             * Decodes a Removed message from the specified reader or buffer.
             * @param reader Reader or buffer to decode from
             * @param [length] Message length if known beforehand
             * @returns {ectp.v1.Removed & ectp.v1.Removed.$Shape} Removed
             * @throws {Error} If the payload is not a reader or valid buffer
             * @throws {$protobuf.util.ProtocolError} If required fields are missing
             */
            static decode(reader: ($protobuf.Reader|Uint8Array), length?: number): ectp.v1.Removed & ectp.v1.Removed.$Shape;

            /**
             * Decodes a Removed message from the specified reader or buffer, length delimited.
             * @param reader Reader or buffer to decode from
             * @returns {ectp.v1.Removed & ectp.v1.Removed.$Shape} Removed
             * @throws {Error} If the payload is not a reader or valid buffer
             * @throws {$protobuf.util.ProtocolError} If required fields are missing
             */
            static decodeDelimited(reader: ($protobuf.Reader|Uint8Array)): ectp.v1.Removed & ectp.v1.Removed.$Shape;

            /**
             * Verifies a Removed message.
             * @param message Plain object to verify
             * @returns `null` if valid, otherwise the reason why it is not
             */
            static verify(message: { [k: string]: any }): (string|null);

            /**
             * Creates a Removed message from a plain object. Also converts values to their respective internal types.
             * @param object Plain object
             * @returns Removed
             */
            static fromObject(object: { [k: string]: any }): ectp.v1.Removed;

            /**
             * Creates a plain object from a Removed message. Also converts values to other types if specified.
             * @param message Removed
             * @param [options] Conversion options
             * @returns Plain object
             */
            static toObject(message: ectp.v1.Removed, options?: $protobuf.IConversionOptions): { [k: string]: any };

            /**
             * Converts this Removed to JSON.
             * @returns JSON object
             */
            toJSON(): { [k: string]: any };

            /**
             * Gets the type url for Removed
             * @param [prefix] Custom type url prefix, defaults to `"type.googleapis.com"`
             * @returns The type url
             */
            static getTypeUrl(prefix?: string): string;
        }

        namespace Removed {

            /** Properties of a Removed. */
            interface $Properties {

                /** The item's key. */
                key?: (ectp.v1.ItemKey.$Properties|null|undefined);

                /**
                 * Why it left (RemovedCause): EVICTED to make room, or DISCARDED before it
                 * became ready; UNSPECIFIED and unknown values read as EVICTED.
                 */
                cause?: (ectp.v1.RemovedCause|null|undefined);

                /** Unknown fields preserved while decoding when enabled */
                $unknowns?: Uint8Array[];
            }

            /** Shape of a Removed. */
            type $Shape = ectp.v1.Removed.$Properties;
        }

        /**
         * Properties of a Cleared.
         * @deprecated Use ectp.v1.Cleared.$Properties instead.
         */
        interface ICleared extends ectp.v1.Cleared.$Properties {
        }

        /** Every item was dropped. */
        class Cleared {

            /**
             * Constructs a new Cleared.
             * @param [properties] Properties to set
             */
            constructor(properties?: ectp.v1.Cleared.$Properties);

            /** Unknown fields preserved while decoding when enabled */
            $unknowns?: Uint8Array[];

            /**
             * Why everything left (ClearedCause): RESET of the region, or SHUTDOWN of
             * the producer; UNSPECIFIED and unknown values read as RESET.
             */
            cause: ectp.v1.ClearedCause;

            /**
             * Creates a new Cleared instance using the specified properties.
             * @param [properties] Properties to set
             * @returns Cleared instance
             */
            static create(properties: ectp.v1.Cleared.$Shape): ectp.v1.Cleared & ectp.v1.Cleared.$Shape;
            static create(properties?: ectp.v1.Cleared.$Properties): ectp.v1.Cleared;

            /**
             * Encodes the specified Cleared message. Does not implicitly {@link ectp.v1.Cleared.verify|verify} messages.
             * @param message Cleared message or plain object to encode
             * @param [writer] Writer to encode to
             * @returns Writer
             */
            static encode(message: ectp.v1.Cleared.$Properties, writer?: $protobuf.Writer): $protobuf.Writer;

            /**
             * Encodes the specified Cleared message, length delimited. Does not implicitly {@link ectp.v1.Cleared.verify|verify} messages.
             * @param message Cleared message or plain object to encode
             * @param [writer] Writer to encode to
             * @returns Writer
             */
            static encodeDelimited(message: ectp.v1.Cleared.$Properties, writer?: $protobuf.Writer): $protobuf.Writer;

            /**
             * Decodes a Cleared message from the specified reader or buffer.
             * @param reader Reader or buffer to decode from
             * @param [length] Message length if known beforehand
             * @returns {ectp.v1.Cleared & ectp.v1.Cleared.$Shape} Cleared
             * @throws {Error} If the payload is not a reader or valid buffer
             * @throws {$protobuf.util.ProtocolError} If required fields are missing
             */
            static decode(reader: ($protobuf.Reader|Uint8Array), length?: number): ectp.v1.Cleared & ectp.v1.Cleared.$Shape;

            /**
             * Decodes a Cleared message from the specified reader or buffer, length delimited.
             * @param reader Reader or buffer to decode from
             * @returns {ectp.v1.Cleared & ectp.v1.Cleared.$Shape} Cleared
             * @throws {Error} If the payload is not a reader or valid buffer
             * @throws {$protobuf.util.ProtocolError} If required fields are missing
             */
            static decodeDelimited(reader: ($protobuf.Reader|Uint8Array)): ectp.v1.Cleared & ectp.v1.Cleared.$Shape;

            /**
             * Verifies a Cleared message.
             * @param message Plain object to verify
             * @returns `null` if valid, otherwise the reason why it is not
             */
            static verify(message: { [k: string]: any }): (string|null);

            /**
             * Creates a Cleared message from a plain object. Also converts values to their respective internal types.
             * @param object Plain object
             * @returns Cleared
             */
            static fromObject(object: { [k: string]: any }): ectp.v1.Cleared;

            /**
             * Creates a plain object from a Cleared message. Also converts values to other types if specified.
             * @param message Cleared
             * @param [options] Conversion options
             * @returns Plain object
             */
            static toObject(message: ectp.v1.Cleared, options?: $protobuf.IConversionOptions): { [k: string]: any };

            /**
             * Converts this Cleared to JSON.
             * @returns JSON object
             */
            toJSON(): { [k: string]: any };

            /**
             * Gets the type url for Cleared
             * @param [prefix] Custom type url prefix, defaults to `"type.googleapis.com"`
             * @returns The type url
             */
            static getTypeUrl(prefix?: string): string;
        }

        namespace Cleared {

            /** Properties of a Cleared. */
            interface $Properties {

                /**
                 * Why everything left (ClearedCause): RESET of the region, or SHUTDOWN of
                 * the producer; UNSPECIFIED and unknown values read as RESET.
                 */
                cause?: (ectp.v1.ClearedCause|null|undefined);

                /** Unknown fields preserved while decoding when enabled */
                $unknowns?: Uint8Array[];
            }

            /** Shape of a Cleared. */
            type $Shape = ectp.v1.Cleared.$Properties;
        }

        /**
         * Properties of an Event.
         * @deprecated Use ectp.v1.Event.$Properties instead.
         */
        interface IEvent extends ectp.v1.Event.$Properties {
        }

        /**
         * One change to the producer's set of ready items; an EventBatch carries
         * them in order [E1].
         */
        class Event {

            /**
             * Constructs a new Event.
             * @param [properties] Properties to set
             */
            constructor(properties?: ectp.v1.Event.$Properties);

            /** Unknown fields preserved while decoding when enabled */
            $unknowns?: Uint8Array[];

            /** An item became ready. */
            stored?: (ectp.v1.Stored.$Properties|null|undefined);

            /** An item left: evicted or discarded. */
            removed?: (ectp.v1.Removed.$Properties|null|undefined);

            /** Everything left. */
            cleared?: (ectp.v1.Cleared.$Properties|null|undefined);

            /**
             * What happened. Exactly one is set; an Event with none set (a kind from a
             * newer minor version) MUST be ignored by the subscriber.
             */
            kind?: ("stored"|"removed"|"cleared");

            /**
             * Creates a new Event instance using the specified properties.
             * @param [properties] Properties to set
             * @returns Event instance
             */
            static create(properties: ectp.v1.Event.$Shape): ectp.v1.Event & ectp.v1.Event.$Shape;
            static create(properties?: ectp.v1.Event.$Properties): ectp.v1.Event;

            /**
             * Encodes the specified Event message. Does not implicitly {@link ectp.v1.Event.verify|verify} messages.
             * @param message Event message or plain object to encode
             * @param [writer] Writer to encode to
             * @returns Writer
             */
            static encode(message: ectp.v1.Event.$Properties, writer?: $protobuf.Writer): $protobuf.Writer;

            /**
             * Encodes the specified Event message, length delimited. Does not implicitly {@link ectp.v1.Event.verify|verify} messages.
             * @param message Event message or plain object to encode
             * @param [writer] Writer to encode to
             * @returns Writer
             */
            static encodeDelimited(message: ectp.v1.Event.$Properties, writer?: $protobuf.Writer): $protobuf.Writer;

            /**
             * Decodes an Event message from the specified reader or buffer.
             * @param reader Reader or buffer to decode from
             * @param [length] Message length if known beforehand
             * @returns {ectp.v1.Event & ectp.v1.Event.$Shape} Event
             * @throws {Error} If the payload is not a reader or valid buffer
             * @throws {$protobuf.util.ProtocolError} If required fields are missing
             */
            static decode(reader: ($protobuf.Reader|Uint8Array), length?: number): ectp.v1.Event & ectp.v1.Event.$Shape;

            /**
             * Decodes an Event message from the specified reader or buffer, length delimited.
             * @param reader Reader or buffer to decode from
             * @returns {ectp.v1.Event & ectp.v1.Event.$Shape} Event
             * @throws {Error} If the payload is not a reader or valid buffer
             * @throws {$protobuf.util.ProtocolError} If required fields are missing
             */
            static decodeDelimited(reader: ($protobuf.Reader|Uint8Array)): ectp.v1.Event & ectp.v1.Event.$Shape;

            /**
             * Verifies an Event message.
             * @param message Plain object to verify
             * @returns `null` if valid, otherwise the reason why it is not
             */
            static verify(message: { [k: string]: any }): (string|null);

            /**
             * Creates an Event message from a plain object. Also converts values to their respective internal types.
             * @param object Plain object
             * @returns Event
             */
            static fromObject(object: { [k: string]: any }): ectp.v1.Event;

            /**
             * Creates a plain object from an Event message. Also converts values to other types if specified.
             * @param message Event
             * @param [options] Conversion options
             * @returns Plain object
             */
            static toObject(message: ectp.v1.Event, options?: $protobuf.IConversionOptions): { [k: string]: any };

            /**
             * Converts this Event to JSON.
             * @returns JSON object
             */
            toJSON(): { [k: string]: any };

            /**
             * Gets the type url for Event
             * @param [prefix] Custom type url prefix, defaults to `"type.googleapis.com"`
             * @returns The type url
             */
            static getTypeUrl(prefix?: string): string;
        }

        namespace Event {

            /** Properties of an Event. */
            interface $Properties {

                /** An item became ready. */
                stored?: (ectp.v1.Stored.$Properties|null|undefined);

                /** An item left: evicted or discarded. */
                removed?: (ectp.v1.Removed.$Properties|null|undefined);

                /** Everything left. */
                cleared?: (ectp.v1.Cleared.$Properties|null|undefined);

                /**
                 * What happened. Exactly one is set; an Event with none set (a kind from a
                 * newer minor version) MUST be ignored by the subscriber.
                 */
                kind?: ("stored"|"removed"|"cleared");

                /** Unknown fields preserved while decoding when enabled */
                $unknowns?: Uint8Array[];
            }

            /** Narrowed shape of an Event. */
            type $Shape = {
              /** `stored`, as documented on this message's `$Properties`. */
              stored?: ectp.v1.Stored.$Shape|null;
              /** `removed`, as documented on this message's `$Properties`. */
              removed?: ectp.v1.Removed.$Shape|null;
              /** `cleared`, as documented on this message's `$Properties`. */
              cleared?: ectp.v1.Cleared.$Shape|null;
              /** `$unknowns`, as documented on this message's `$Properties`. */
              $unknowns?: Uint8Array[];
            } & (
              ({
                /** `kind`, as documented on this message's `$Properties`. */
                kind?: undefined;
                /** `stored`, as documented on this message's `$Properties`. */
                stored?: null;
                /** `removed`, as documented on this message's `$Properties`. */
                removed?: null;
                /** `cleared`, as documented on this message's `$Properties`. */
                cleared?: null }|{
                /** `kind`, as documented on this message's `$Properties`. */
                kind?: "stored";
                /** `stored`, as documented on this message's `$Properties`. */
                stored: ectp.v1.Stored.$Shape;
                /** `removed`, as documented on this message's `$Properties`. */
                removed?: null;
                /** `cleared`, as documented on this message's `$Properties`. */
                cleared?: null }|{
                /** `kind`, as documented on this message's `$Properties`. */
                kind?: "removed";
                /** `stored`, as documented on this message's `$Properties`. */
                stored?: null;
                /** `removed`, as documented on this message's `$Properties`. */
                removed: ectp.v1.Removed.$Shape;
                /** `cleared`, as documented on this message's `$Properties`. */
                cleared?: null }|{
                /** `kind`, as documented on this message's `$Properties`. */
                kind?: "cleared";
                /** `stored`, as documented on this message's `$Properties`. */
                stored?: null;
                /** `removed`, as documented on this message's `$Properties`. */
                removed?: null;
                /** `cleared`, as documented on this message's `$Properties`. */
                cleared: ectp.v1.Cleared.$Shape })
            );
        }

        /**
         * Properties of an EventBatch.
         * @deprecated Use ectp.v1.EventBatch.$Properties instead.
         */
        interface IEventBatch extends ectp.v1.EventBatch.$Properties {
        }

        /** A batch of events, in the order they happened [E1]. */
        class EventBatch {

            /**
             * Constructs a new EventBatch.
             * @param [properties] Properties to set
             */
            constructor(properties?: ectp.v1.EventBatch.$Properties);

            /** Unknown fields preserved while decoding when enabled */
            $unknowns?: Uint8Array[];

            /**
             * Sequence number of this batch: strictly increasing by exactly 1 per batch
             * within one producer epoch, starting at 1. A subscriber that sees a gap
             * replays from the first missing number [E2].
             */
            sequence: number;

            /** The events. A batch holds at least one event. */
            events: ectp.v1.Event.$Properties[];

            /**
             * Creates a new EventBatch instance using the specified properties.
             * @param [properties] Properties to set
             * @returns EventBatch instance
             */
            static create(properties: ectp.v1.EventBatch.$Shape): ectp.v1.EventBatch & ectp.v1.EventBatch.$Shape;
            static create(properties?: ectp.v1.EventBatch.$Properties): ectp.v1.EventBatch;

            /**
             * Encodes the specified EventBatch message. Does not implicitly {@link ectp.v1.EventBatch.verify|verify} messages.
             * @param message EventBatch message or plain object to encode
             * @param [writer] Writer to encode to
             * @returns Writer
             */
            static encode(message: ectp.v1.EventBatch.$Properties, writer?: $protobuf.Writer): $protobuf.Writer;

            /**
             * Encodes the specified EventBatch message, length delimited. Does not implicitly {@link ectp.v1.EventBatch.verify|verify} messages.
             * @param message EventBatch message or plain object to encode
             * @param [writer] Writer to encode to
             * @returns Writer
             */
            static encodeDelimited(message: ectp.v1.EventBatch.$Properties, writer?: $protobuf.Writer): $protobuf.Writer;

            /**
             * Decodes an EventBatch message from the specified reader or buffer.
             * @param reader Reader or buffer to decode from
             * @param [length] Message length if known beforehand
             * @returns {ectp.v1.EventBatch & ectp.v1.EventBatch.$Shape} EventBatch
             * @throws {Error} If the payload is not a reader or valid buffer
             * @throws {$protobuf.util.ProtocolError} If required fields are missing
             */
            static decode(reader: ($protobuf.Reader|Uint8Array), length?: number): ectp.v1.EventBatch & ectp.v1.EventBatch.$Shape;

            /**
             * Decodes an EventBatch message from the specified reader or buffer, length delimited.
             * @param reader Reader or buffer to decode from
             * @returns {ectp.v1.EventBatch & ectp.v1.EventBatch.$Shape} EventBatch
             * @throws {Error} If the payload is not a reader or valid buffer
             * @throws {$protobuf.util.ProtocolError} If required fields are missing
             */
            static decodeDelimited(reader: ($protobuf.Reader|Uint8Array)): ectp.v1.EventBatch & ectp.v1.EventBatch.$Shape;

            /**
             * Verifies an EventBatch message.
             * @param message Plain object to verify
             * @returns `null` if valid, otherwise the reason why it is not
             */
            static verify(message: { [k: string]: any }): (string|null);

            /**
             * Creates an EventBatch message from a plain object. Also converts values to their respective internal types.
             * @param object Plain object
             * @returns EventBatch
             */
            static fromObject(object: { [k: string]: any }): ectp.v1.EventBatch;

            /**
             * Creates a plain object from an EventBatch message. Also converts values to other types if specified.
             * @param message EventBatch
             * @param [options] Conversion options
             * @returns Plain object
             */
            static toObject(message: ectp.v1.EventBatch, options?: $protobuf.IConversionOptions): { [k: string]: any };

            /**
             * Converts this EventBatch to JSON.
             * @returns JSON object
             */
            toJSON(): { [k: string]: any };

            /**
             * Gets the type url for EventBatch
             * @param [prefix] Custom type url prefix, defaults to `"type.googleapis.com"`
             * @returns The type url
             */
            static getTypeUrl(prefix?: string): string;
        }

        namespace EventBatch {

            /** Properties of an EventBatch. */
            interface $Properties {

                /**
                 * Sequence number of this batch: strictly increasing by exactly 1 per batch
                 * within one producer epoch, starting at 1. A subscriber that sees a gap
                 * replays from the first missing number [E2].
                 */
                sequence?: (number|null|undefined);

                /** The events. A batch holds at least one event. */
                events?: (ectp.v1.Event.$Properties[]|null|undefined);

                /** Unknown fields preserved while decoding when enabled */
                $unknowns?: Uint8Array[];
            }

            /** Shape of an EventBatch. */
            type $Shape = {
              /** `sequence`, as documented on this message's `$Properties`. */
              sequence?: number|null;
              /** `events`, as documented on this message's `$Properties`. */
              events?: ectp.v1.Event.$Shape[]|null;
              /** `$unknowns`, as documented on this message's `$Properties`. */
              $unknowns?: Uint8Array[];
            };
        }

        /**
         * Properties of a ReplayRequest.
         * @deprecated Use ectp.v1.ReplayRequest.$Properties instead.
         */
        interface IReplayRequest extends ectp.v1.ReplayRequest.$Properties {
        }

        /** Subscriber to producer: resend batches from `from_sequence` on [E2]. */
        class ReplayRequest {

            /**
             * Constructs a new ReplayRequest.
             * @param [properties] Properties to set
             */
            constructor(properties?: ectp.v1.ReplayRequest.$Properties);

            /** Unknown fields preserved while decoding when enabled */
            $unknowns?: Uint8Array[];

            /**
             * First batch sequence wanted. 0 is treated as 1. Greater than the latest
             * published sequence: nothing is sent (the subscriber is up to date).
             */
            fromSequence: number;

            /**
             * Creates a new ReplayRequest instance using the specified properties.
             * @param [properties] Properties to set
             * @returns ReplayRequest instance
             */
            static create(properties: ectp.v1.ReplayRequest.$Shape): ectp.v1.ReplayRequest & ectp.v1.ReplayRequest.$Shape;
            static create(properties?: ectp.v1.ReplayRequest.$Properties): ectp.v1.ReplayRequest;

            /**
             * Encodes the specified ReplayRequest message. Does not implicitly {@link ectp.v1.ReplayRequest.verify|verify} messages.
             * @param message ReplayRequest message or plain object to encode
             * @param [writer] Writer to encode to
             * @returns Writer
             */
            static encode(message: ectp.v1.ReplayRequest.$Properties, writer?: $protobuf.Writer): $protobuf.Writer;

            /**
             * Encodes the specified ReplayRequest message, length delimited. Does not implicitly {@link ectp.v1.ReplayRequest.verify|verify} messages.
             * @param message ReplayRequest message or plain object to encode
             * @param [writer] Writer to encode to
             * @returns Writer
             */
            static encodeDelimited(message: ectp.v1.ReplayRequest.$Properties, writer?: $protobuf.Writer): $protobuf.Writer;

            /**
             * Decodes a ReplayRequest message from the specified reader or buffer.
             * @param reader Reader or buffer to decode from
             * @param [length] Message length if known beforehand
             * @returns {ectp.v1.ReplayRequest & ectp.v1.ReplayRequest.$Shape} ReplayRequest
             * @throws {Error} If the payload is not a reader or valid buffer
             * @throws {$protobuf.util.ProtocolError} If required fields are missing
             */
            static decode(reader: ($protobuf.Reader|Uint8Array), length?: number): ectp.v1.ReplayRequest & ectp.v1.ReplayRequest.$Shape;

            /**
             * Decodes a ReplayRequest message from the specified reader or buffer, length delimited.
             * @param reader Reader or buffer to decode from
             * @returns {ectp.v1.ReplayRequest & ectp.v1.ReplayRequest.$Shape} ReplayRequest
             * @throws {Error} If the payload is not a reader or valid buffer
             * @throws {$protobuf.util.ProtocolError} If required fields are missing
             */
            static decodeDelimited(reader: ($protobuf.Reader|Uint8Array)): ectp.v1.ReplayRequest & ectp.v1.ReplayRequest.$Shape;

            /**
             * Verifies a ReplayRequest message.
             * @param message Plain object to verify
             * @returns `null` if valid, otherwise the reason why it is not
             */
            static verify(message: { [k: string]: any }): (string|null);

            /**
             * Creates a ReplayRequest message from a plain object. Also converts values to their respective internal types.
             * @param object Plain object
             * @returns ReplayRequest
             */
            static fromObject(object: { [k: string]: any }): ectp.v1.ReplayRequest;

            /**
             * Creates a plain object from a ReplayRequest message. Also converts values to other types if specified.
             * @param message ReplayRequest
             * @param [options] Conversion options
             * @returns Plain object
             */
            static toObject(message: ectp.v1.ReplayRequest, options?: $protobuf.IConversionOptions): { [k: string]: any };

            /**
             * Converts this ReplayRequest to JSON.
             * @returns JSON object
             */
            toJSON(): { [k: string]: any };

            /**
             * Gets the type url for ReplayRequest
             * @param [prefix] Custom type url prefix, defaults to `"type.googleapis.com"`
             * @returns The type url
             */
            static getTypeUrl(prefix?: string): string;
        }

        namespace ReplayRequest {

            /** Properties of a ReplayRequest. */
            interface $Properties {

                /**
                 * First batch sequence wanted. 0 is treated as 1. Greater than the latest
                 * published sequence: nothing is sent (the subscriber is up to date).
                 */
                fromSequence?: (number|null|undefined);

                /** Unknown fields preserved while decoding when enabled */
                $unknowns?: Uint8Array[];
            }

            /** Shape of a ReplayRequest. */
            type $Shape = ectp.v1.ReplayRequest.$Properties;
        }

        /**
         * Properties of a ReplayUnavailable.
         * @deprecated Use ectp.v1.ReplayUnavailable.$Properties instead.
         */
        interface IReplayUnavailable extends ectp.v1.ReplayUnavailable.$Properties {
        }

        /**
         * Producer to subscriber: the requested replay is not in the bounded buffer;
         * the subscriber MUST ask for a snapshot, unless `latest` is not greater than
         * the last sequence it applied (a late answer about a gap since filled) [E2].
         */
        class ReplayUnavailable {

            /**
             * Constructs a new ReplayUnavailable.
             * @param [properties] Properties to set
             */
            constructor(properties?: ectp.v1.ReplayUnavailable.$Properties);

            /** Unknown fields preserved while decoding when enabled */
            $unknowns?: Uint8Array[];

            /** Oldest batch sequence still buffered. 0: the buffer is empty. */
            oldestAvailable: number;

            /** Sequence of the newest batch published so far in this epoch. 0: none yet. */
            latest: number;

            /**
             * Creates a new ReplayUnavailable instance using the specified properties.
             * @param [properties] Properties to set
             * @returns ReplayUnavailable instance
             */
            static create(properties: ectp.v1.ReplayUnavailable.$Shape): ectp.v1.ReplayUnavailable & ectp.v1.ReplayUnavailable.$Shape;
            static create(properties?: ectp.v1.ReplayUnavailable.$Properties): ectp.v1.ReplayUnavailable;

            /**
             * Encodes the specified ReplayUnavailable message. Does not implicitly {@link ectp.v1.ReplayUnavailable.verify|verify} messages.
             * @param message ReplayUnavailable message or plain object to encode
             * @param [writer] Writer to encode to
             * @returns Writer
             */
            static encode(message: ectp.v1.ReplayUnavailable.$Properties, writer?: $protobuf.Writer): $protobuf.Writer;

            /**
             * Encodes the specified ReplayUnavailable message, length delimited. Does not implicitly {@link ectp.v1.ReplayUnavailable.verify|verify} messages.
             * @param message ReplayUnavailable message or plain object to encode
             * @param [writer] Writer to encode to
             * @returns Writer
             */
            static encodeDelimited(message: ectp.v1.ReplayUnavailable.$Properties, writer?: $protobuf.Writer): $protobuf.Writer;

            /**
             * Decodes a ReplayUnavailable message from the specified reader or buffer.
             * @param reader Reader or buffer to decode from
             * @param [length] Message length if known beforehand
             * @returns {ectp.v1.ReplayUnavailable & ectp.v1.ReplayUnavailable.$Shape} ReplayUnavailable
             * @throws {Error} If the payload is not a reader or valid buffer
             * @throws {$protobuf.util.ProtocolError} If required fields are missing
             */
            static decode(reader: ($protobuf.Reader|Uint8Array), length?: number): ectp.v1.ReplayUnavailable & ectp.v1.ReplayUnavailable.$Shape;

            /**
             * Decodes a ReplayUnavailable message from the specified reader or buffer, length delimited.
             * @param reader Reader or buffer to decode from
             * @returns {ectp.v1.ReplayUnavailable & ectp.v1.ReplayUnavailable.$Shape} ReplayUnavailable
             * @throws {Error} If the payload is not a reader or valid buffer
             * @throws {$protobuf.util.ProtocolError} If required fields are missing
             */
            static decodeDelimited(reader: ($protobuf.Reader|Uint8Array)): ectp.v1.ReplayUnavailable & ectp.v1.ReplayUnavailable.$Shape;

            /**
             * Verifies a ReplayUnavailable message.
             * @param message Plain object to verify
             * @returns `null` if valid, otherwise the reason why it is not
             */
            static verify(message: { [k: string]: any }): (string|null);

            /**
             * Creates a ReplayUnavailable message from a plain object. Also converts values to their respective internal types.
             * @param object Plain object
             * @returns ReplayUnavailable
             */
            static fromObject(object: { [k: string]: any }): ectp.v1.ReplayUnavailable;

            /**
             * Creates a plain object from a ReplayUnavailable message. Also converts values to other types if specified.
             * @param message ReplayUnavailable
             * @param [options] Conversion options
             * @returns Plain object
             */
            static toObject(message: ectp.v1.ReplayUnavailable, options?: $protobuf.IConversionOptions): { [k: string]: any };

            /**
             * Converts this ReplayUnavailable to JSON.
             * @returns JSON object
             */
            toJSON(): { [k: string]: any };

            /**
             * Gets the type url for ReplayUnavailable
             * @param [prefix] Custom type url prefix, defaults to `"type.googleapis.com"`
             * @returns The type url
             */
            static getTypeUrl(prefix?: string): string;
        }

        namespace ReplayUnavailable {

            /** Properties of a ReplayUnavailable. */
            interface $Properties {

                /** Oldest batch sequence still buffered. 0: the buffer is empty. */
                oldestAvailable?: (number|null|undefined);

                /** Sequence of the newest batch published so far in this epoch. 0: none yet. */
                latest?: (number|null|undefined);

                /** Unknown fields preserved while decoding when enabled */
                $unknowns?: Uint8Array[];
            }

            /** Shape of a ReplayUnavailable. */
            type $Shape = ectp.v1.ReplayUnavailable.$Properties;
        }

        /**
         * Properties of a SnapshotRequest.
         * @deprecated Use ectp.v1.SnapshotRequest.$Properties instead.
         */
        interface ISnapshotRequest extends ectp.v1.SnapshotRequest.$Properties {
        }

        /**
         * Subscriber to producer: send what you hold now. A subscriber MUST send one to
         * each producer epoch it follows, unless a snapshot of that epoch reached it
         * first: a Hello alone leaves its view empty [E2].
         */
        class SnapshotRequest {

            /**
             * Constructs a new SnapshotRequest.
             * @param [properties] Properties to set
             */
            constructor(properties?: ectp.v1.SnapshotRequest.$Properties);

            /** Unknown fields preserved while decoding when enabled */
            $unknowns?: Uint8Array[];

            /**
             * Creates a new SnapshotRequest instance using the specified properties.
             * @param [properties] Properties to set
             * @returns SnapshotRequest instance
             */
            static create(properties: ectp.v1.SnapshotRequest.$Shape): ectp.v1.SnapshotRequest & ectp.v1.SnapshotRequest.$Shape;
            static create(properties?: ectp.v1.SnapshotRequest.$Properties): ectp.v1.SnapshotRequest;

            /**
             * Encodes the specified SnapshotRequest message. Does not implicitly {@link ectp.v1.SnapshotRequest.verify|verify} messages.
             * @param message SnapshotRequest message or plain object to encode
             * @param [writer] Writer to encode to
             * @returns Writer
             */
            static encode(message: ectp.v1.SnapshotRequest.$Properties, writer?: $protobuf.Writer): $protobuf.Writer;

            /**
             * Encodes the specified SnapshotRequest message, length delimited. Does not implicitly {@link ectp.v1.SnapshotRequest.verify|verify} messages.
             * @param message SnapshotRequest message or plain object to encode
             * @param [writer] Writer to encode to
             * @returns Writer
             */
            static encodeDelimited(message: ectp.v1.SnapshotRequest.$Properties, writer?: $protobuf.Writer): $protobuf.Writer;

            /**
             * Decodes a SnapshotRequest message from the specified reader or buffer.
             * @param reader Reader or buffer to decode from
             * @param [length] Message length if known beforehand
             * @returns {ectp.v1.SnapshotRequest & ectp.v1.SnapshotRequest.$Shape} SnapshotRequest
             * @throws {Error} If the payload is not a reader or valid buffer
             * @throws {$protobuf.util.ProtocolError} If required fields are missing
             */
            static decode(reader: ($protobuf.Reader|Uint8Array), length?: number): ectp.v1.SnapshotRequest & ectp.v1.SnapshotRequest.$Shape;

            /**
             * Decodes a SnapshotRequest message from the specified reader or buffer, length delimited.
             * @param reader Reader or buffer to decode from
             * @returns {ectp.v1.SnapshotRequest & ectp.v1.SnapshotRequest.$Shape} SnapshotRequest
             * @throws {Error} If the payload is not a reader or valid buffer
             * @throws {$protobuf.util.ProtocolError} If required fields are missing
             */
            static decodeDelimited(reader: ($protobuf.Reader|Uint8Array)): ectp.v1.SnapshotRequest & ectp.v1.SnapshotRequest.$Shape;

            /**
             * Verifies a SnapshotRequest message.
             * @param message Plain object to verify
             * @returns `null` if valid, otherwise the reason why it is not
             */
            static verify(message: { [k: string]: any }): (string|null);

            /**
             * Creates a SnapshotRequest message from a plain object. Also converts values to their respective internal types.
             * @param object Plain object
             * @returns SnapshotRequest
             */
            static fromObject(object: { [k: string]: any }): ectp.v1.SnapshotRequest;

            /**
             * Creates a plain object from a SnapshotRequest message. Also converts values to other types if specified.
             * @param message SnapshotRequest
             * @param [options] Conversion options
             * @returns Plain object
             */
            static toObject(message: ectp.v1.SnapshotRequest, options?: $protobuf.IConversionOptions): { [k: string]: any };

            /**
             * Converts this SnapshotRequest to JSON.
             * @returns JSON object
             */
            toJSON(): { [k: string]: any };

            /**
             * Gets the type url for SnapshotRequest
             * @param [prefix] Custom type url prefix, defaults to `"type.googleapis.com"`
             * @returns The type url
             */
            static getTypeUrl(prefix?: string): string;
        }

        namespace SnapshotRequest {

            /** Properties of a SnapshotRequest. */
            interface $Properties {

                /** Unknown fields preserved while decoding when enabled */
                $unknowns?: Uint8Array[];
            }

            /** Shape of a SnapshotRequest. */
            type $Shape = ectp.v1.SnapshotRequest.$Properties;
        }

        /**
         * Properties of a Snapshot.
         * @deprecated Use ectp.v1.Snapshot.$Properties instead.
         */
        interface ISnapshot extends ectp.v1.Snapshot.$Properties {
        }

        /**
         * Producer to subscriber: every ready item held, as of batch `sequence`.
         * Events with a higher sequence follow the snapshot. A snapshot too large for
         * one message is sent in parts: `parts` messages with the same `sequence`,
         * numbered by `part`, whose `items` together are the snapshot [E2].
         */
        class Snapshot {

            /**
             * Constructs a new Snapshot.
             * @param [properties] Properties to set
             */
            constructor(properties?: ectp.v1.Snapshot.$Properties);

            /** Unknown fields preserved while decoding when enabled */
            $unknowns?: Uint8Array[];

            /** Sequence of the newest batch reflected in the snapshot. 0: none yet. */
            sequence: number;

            /**
             * Every ready item the producer holds (this part's share of them when
             * `parts` is greater than 1).
             */
            items: ectp.v1.ItemDescriptor.$Properties[];

            /** Index of this part, from 0 to `parts` - 1. Absent: 0. */
            part: number;

            /**
             * Number of parts of this snapshot. Absent (0) or 1: this message is the
             * whole snapshot.
             */
            parts: number;

            /**
             * Which answer this is: every Snapshot answer of a producer epoch has a
             * greater id than the one before (the first is at least 1), and all parts of
             * one answer carry the same id, so parts of two answers are never combined
             * [E2]. Always set: a producer MUST NOT send 0 (absent); a subscriber reads a 0
             * as the lowest id.
             */
            snapshotId: number;

            /**
             * Creates a new Snapshot instance using the specified properties.
             * @param [properties] Properties to set
             * @returns Snapshot instance
             */
            static create(properties: ectp.v1.Snapshot.$Shape): ectp.v1.Snapshot & ectp.v1.Snapshot.$Shape;
            static create(properties?: ectp.v1.Snapshot.$Properties): ectp.v1.Snapshot;

            /**
             * Encodes the specified Snapshot message. Does not implicitly {@link ectp.v1.Snapshot.verify|verify} messages.
             * @param message Snapshot message or plain object to encode
             * @param [writer] Writer to encode to
             * @returns Writer
             */
            static encode(message: ectp.v1.Snapshot.$Properties, writer?: $protobuf.Writer): $protobuf.Writer;

            /**
             * Encodes the specified Snapshot message, length delimited. Does not implicitly {@link ectp.v1.Snapshot.verify|verify} messages.
             * @param message Snapshot message or plain object to encode
             * @param [writer] Writer to encode to
             * @returns Writer
             */
            static encodeDelimited(message: ectp.v1.Snapshot.$Properties, writer?: $protobuf.Writer): $protobuf.Writer;

            /**
             * Decodes a Snapshot message from the specified reader or buffer.
             * @param reader Reader or buffer to decode from
             * @param [length] Message length if known beforehand
             * @returns {ectp.v1.Snapshot & ectp.v1.Snapshot.$Shape} Snapshot
             * @throws {Error} If the payload is not a reader or valid buffer
             * @throws {$protobuf.util.ProtocolError} If required fields are missing
             */
            static decode(reader: ($protobuf.Reader|Uint8Array), length?: number): ectp.v1.Snapshot & ectp.v1.Snapshot.$Shape;

            /**
             * Decodes a Snapshot message from the specified reader or buffer, length delimited.
             * @param reader Reader or buffer to decode from
             * @returns {ectp.v1.Snapshot & ectp.v1.Snapshot.$Shape} Snapshot
             * @throws {Error} If the payload is not a reader or valid buffer
             * @throws {$protobuf.util.ProtocolError} If required fields are missing
             */
            static decodeDelimited(reader: ($protobuf.Reader|Uint8Array)): ectp.v1.Snapshot & ectp.v1.Snapshot.$Shape;

            /**
             * Verifies a Snapshot message.
             * @param message Plain object to verify
             * @returns `null` if valid, otherwise the reason why it is not
             */
            static verify(message: { [k: string]: any }): (string|null);

            /**
             * Creates a Snapshot message from a plain object. Also converts values to their respective internal types.
             * @param object Plain object
             * @returns Snapshot
             */
            static fromObject(object: { [k: string]: any }): ectp.v1.Snapshot;

            /**
             * Creates a plain object from a Snapshot message. Also converts values to other types if specified.
             * @param message Snapshot
             * @param [options] Conversion options
             * @returns Plain object
             */
            static toObject(message: ectp.v1.Snapshot, options?: $protobuf.IConversionOptions): { [k: string]: any };

            /**
             * Converts this Snapshot to JSON.
             * @returns JSON object
             */
            toJSON(): { [k: string]: any };

            /**
             * Gets the type url for Snapshot
             * @param [prefix] Custom type url prefix, defaults to `"type.googleapis.com"`
             * @returns The type url
             */
            static getTypeUrl(prefix?: string): string;
        }

        namespace Snapshot {

            /** Properties of a Snapshot. */
            interface $Properties {

                /** Sequence of the newest batch reflected in the snapshot. 0: none yet. */
                sequence?: (number|null|undefined);

                /**
                 * Every ready item the producer holds (this part's share of them when
                 * `parts` is greater than 1).
                 */
                items?: (ectp.v1.ItemDescriptor.$Properties[]|null|undefined);

                /** Index of this part, from 0 to `parts` - 1. Absent: 0. */
                part?: (number|null|undefined);

                /**
                 * Number of parts of this snapshot. Absent (0) or 1: this message is the
                 * whole snapshot.
                 */
                parts?: (number|null|undefined);

                /**
                 * Which answer this is: every Snapshot answer of a producer epoch has a
                 * greater id than the one before (the first is at least 1), and all parts of
                 * one answer carry the same id, so parts of two answers are never combined
                 * [E2]. Always set: a producer MUST NOT send 0 (absent); a subscriber reads a 0
                 * as the lowest id.
                 */
                snapshotId?: (number|null|undefined);

                /** Unknown fields preserved while decoding when enabled */
                $unknowns?: Uint8Array[];
            }

            /** Shape of a Snapshot. */
            type $Shape = ectp.v1.Snapshot.$Properties;
        }
    }
}
