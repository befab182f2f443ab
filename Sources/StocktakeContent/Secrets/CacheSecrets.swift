import Foundation
import StocktakeModel

/// Secrets in URLCache's responses: in a request's query parameters and headers and in the cached body. Places name
/// the host and the parameter or header, never the URL's path or query (they may hold the secret).
struct CacheSecrets {
    private(set) var hits: [PropertyListSecrets.Hit] = []
    private var seen: Set<String> = []

    static func find(_ responses: [CachedResponse]) -> [PropertyListSecrets.Hit] {
        var finder = CacheSecrets()
        for response in responses { finder.add(response) }
        return finder.hits
    }

    private mutating func add(_ place: String, _ kind: SensitiveItem.Kind, _ length: Int) {
        // The same header on every request to a host is one finding.
        if seen.insert(place + " " + kind.rawValue).inserted {
            hits.append(PropertyListSecrets.Hit(place: place, kind: kind, length: length))
        }
    }

    mutating func add(_ response: CachedResponse) {
        let components = URLComponents(string: response.requestURL)
        let host = components?.host ?? "an unnamed host"
        for item in components?.queryItems ?? [] {
            guard let value = item.value, !value.isEmpty else { continue }
            if SecretShapes.isJWT(Substring(value)) {
                add("request to \(host), parameter \(item.name)", .jwt, value.count)
            } else if let kind = SecretNames.kind(ofName: item.name),
                let length = SecretNames.secretLength(value, as: kind, name: item.name)
            {
                add("request to \(host), parameter \(item.name)", kind, length)
            }
        }
        for (name, value) in response.requestHeaders.sorted(by: { $0.key < $1.key }) {
            if name.lowercased() == "authorization" {
                let credential = value.split(separator: " ", maxSplits: 1).last.map(String.init) ?? value
                if credential.count >= 8 {
                    add("request to \(host), header \(name)", .authorizationHeader, credential.count)
                }
            } else if name.lowercased() != "cookie", let kind = SecretNames.kind(ofName: name),
                let length = SecretNames.secretLength(value, as: kind, name: name)
            {
                add("request to \(host), header \(name)", kind, length)
            }
        }
        for hit in TextSecrets.find(in: response.body) {
            add("response from \(host) (\(response.bodyLocation)), \(hit.place)", hit.kind, hit.length)
        }
    }
}
