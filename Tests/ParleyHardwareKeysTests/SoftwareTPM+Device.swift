import ParleyHardwareKeys
import ParleyTestSupport

extension SoftwareTPM {
    /// The TPM as Parley reaches it.
    var device: TPMDevice { TPMDevice(tcti: tcti) }
}
