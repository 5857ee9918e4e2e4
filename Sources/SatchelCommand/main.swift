import RPCServer

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

exit(SatchelCommandLine.run(Array(CommandLine.arguments.dropFirst())))
