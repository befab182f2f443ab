#if PostgreSQL
    import Foundation
    import NIOCore
    import NIOPosix
    import NIOSSL
    import PostgresNIO
    import StocktakeHistory

    /// TLS as libpq's sslmodes, and a certificate that fails its check explained as the check that failed and what
    /// to set, rather than as the TLS library's error (which names files of the build).
    enum PostgresTLS {
        static func configuration(_ address: PostgresAddress) throws(HistoryError)
            -> PostgresConnection.Configuration.TLS
        {
            var settings = TLSConfiguration.makeClientConfiguration()
            switch address.tls {
            case .disable: return .disable
            case .prefer, .require: settings.certificateVerification = .none
            case .verifyCA: settings.certificateVerification = .noHostnameVerification
            case .verifyFull: settings.certificateVerification = .fullVerification
            }
            if let roots = address.rootCertificate, address.tls == .verifyCA || address.tls == .verifyFull {
                settings.trustRoots = .file(roots)
            }
            do {
                let context = try NIOSSLContext(configuration: settings)
                return address.tls == .prefer ? .prefer(context) : .require(context)
            } catch {
                throw HistoryError(
                    store: address.description, kind: .failed,
                    message:
                        "could not set up TLS: \(address.rootCertificate.map { "sslrootcert (\($0)) is not a readable file of PEM certificates" } ?? "the system's trusted certificates could not be loaded")"
                )
            }
        }

        /// What a failed login says about the server's certificate, or nil when the failure is not its check.
        static func diagnose(_ error: any Error, _ address: PostgresAddress) async -> HistoryError? {
            guard address.tls == .verifyCA || address.tls == .verifyFull,
                let underlying = (error as? PSQLError)?.underlying
            else { return nil }
            func refused(_ why: String) -> HistoryError {
                HistoryError(
                    store: address.description, kind: .refused,
                    message: "sent a certificate that fails the check of sslmode=\(address.tls.rawValue): " + why)
            }
            if let extra = underlying as? NIOSSLExtraError, extra == .failedToValidateHostname {
                return refused(
                    "it does not name the host \(address.host) (connect by a name it holds, or set sslmode=verify-ca to check only who signed it)"
                )
            }
            guard case .handshakeFailed(let failure)? = underlying as? NIOSSLError,
                "\(failure)".contains("CERTIFICATE_VERIFY_FAILED")
            else { return nil }
            let now = time(nil)
            let chain = await validities(address)
            if let expired = chain.first(where: { $0.notAfter < now }) {
                return refused(
                    "it expired on \(day(expired.notAfter)) (the server needs a new one; check this machine's clock too)"
                )
            }
            if let early = chain.first(where: { $0.notBefore > now }) {
                return refused("it is not valid before \(day(early.notBefore)) (check this machine's clock)")
            }
            let trusted =
                address.rootCertificate.map { "a CA in sslrootcert (\($0))" }
                ?? "a CA this machine trusts (no sslrootcert was given, and there is no ~/.postgresql/root.crt)"
            return refused(
                "it is not signed by \(trusted): set sslrootcert to the certificate of the CA that signed the server's, or sslmode=require to encrypt without checking it"
            )
        }

        private static func day(_ time: time_t) -> String {
            Date(timeIntervalSince1970: TimeInterval(time)).formatted(.iso8601.year().month().day())
        }

        typealias Validity = (notBefore: time_t, notAfter: time_t)

        /// The validity of each certificate the server sends, unchecked, asked for as a PostgreSQL client asks (an
        /// SSLRequest, answered 'S'); none when that fails. Only to explain a failed check: nothing else is sent.
        private static func validities(_ address: PostgresAddress) async -> [Validity] {
            var settings = TLSConfiguration.makeClientConfiguration()
            // Not `.none`: NIOSSL calls a custom verification callback only when it verifies.
            settings.certificateVerification = .noHostnameVerification
            guard let context = try? NIOSSLContext(configuration: settings) else { return [] }
            let loop = MultiThreadedEventLoopGroup.singleton.next()
            let answer = loop.makePromise(of: [Validity].self)
            let timer = loop.scheduleTask(in: .seconds(Int64(address.connectTimeoutSeconds))) { answer.succeed([]) }
            defer { timer.cancel() }
            let bootstrap = ClientBootstrap(group: loop).connectTimeout(.seconds(Int64(address.connectTimeoutSeconds)))
                .channelInitializer { channel in
                    channel.eventLoop.makeCompletedFuture {
                        try channel.pipeline.syncOperations.addHandler(Probe(context: context, answer: answer))
                    }
                }
            guard let channel = try? await bootstrap.connect(host: address.host, port: address.port).get() else {
                answer.succeed([])
                return []
            }
            defer { channel.close(promise: nil) }
            return (try? await answer.futureResult.get()) ?? []
        }

        /// Asks for TLS, and takes the certificates the server sends without trusting them (the handshake is failed).
        private final class Probe: ChannelInboundHandler {
            typealias InboundIn = ByteBuffer
            typealias OutboundOut = ByteBuffer
            let context: NIOSSLContext
            let answer: EventLoopPromise<[Validity]>
            private var asked = false

            init(context: NIOSSLContext, answer: EventLoopPromise<[Validity]>) {
                self.context = context
                self.answer = answer
            }

            func channelActive(context: ChannelHandlerContext) {
                // PostgreSQL's SSLRequest: its length, then the code 1234 5679.
                var request = context.channel.allocator.buffer(capacity: 8)
                request.writeInteger(Int32(8))
                request.writeInteger(Int32(80_877_103))
                context.writeAndFlush(wrapOutboundOut(request), promise: nil)
                context.fireChannelActive()
            }

            func channelRead(context: ChannelHandlerContext, data: NIOAny) {
                guard !asked else { return }
                asked = true
                var reply = unwrapInboundIn(data)
                let answer = self.answer
                guard reply.readInteger(as: UInt8.self) == UInt8(ascii: "S"),
                    let tls = try? NIOSSLClientHandler(
                        context: self.context, serverHostname: nil,
                        customVerificationCallback: { chain, verdict in
                            answer.succeed(chain.map { (notBefore: $0.notValidBefore, notAfter: $0.notValidAfter) })
                            verdict.succeed(.failed)
                        }),
                    (try? context.pipeline.syncOperations.addHandler(
                        tls, position: ChannelPipeline.SynchronousOperations.Position.first)) != nil
                else {
                    answer.succeed([])
                    context.close(promise: nil)
                    return
                }
            }

            func channelInactive(context: ChannelHandlerContext) {
                answer.succeed([])
                context.fireChannelInactive()
            }

            func errorCaught(context: ChannelHandlerContext, error: any Error) {
                answer.succeed([])
                context.close(promise: nil)
            }
        }
    }
#endif
