/// The version of ocr-cluster: what every executable's `--version` prints, what `/metrics`
/// reports as build info and what clients send in call metadata.
package enum ProductVersion {
    package static let current = "0.2.0"
}
