import * as $protobuf from "protobufjs";

/** Namespace ectp. */
export namespace ectp {

    /** Namespace v1. */
    namespace v1 {

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
