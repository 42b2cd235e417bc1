package dev.nvidb.model;

/**
 * A GPU's PCIe link and traffic at one probe, as NVML reported them. Every field is nullable:
 * null means the driver could not say (not supported, an NVML error, or the nvidia-smi
 * fallback), which is different from zero. Scoring the traffic against the link is
 * {@code monitor.PcieScore}'s job.
 *
 * @param linkGeneration       generation of the link the card runs at now; an idle card may drop
 *                             to a lower one to save power
 * @param linkWidth            lanes of the link now; a narrower slot or riser shows fewer
 * @param maxLinkGeneration    the highest generation the card and its slot allow
 * @param maxLinkWidth         the widest link the card and its slot allow
 * @param rxKilobytesPerSecond what the GPU received, KB/s, over the driver's 20 ms sample
 * @param txKilobytesPerSecond what the GPU sent, KB/s, over the driver's 20 ms sample
 */
public record PcieSnapshot(
        Integer linkGeneration,
        Integer linkWidth,
        Integer maxLinkGeneration,
        Integer maxLinkWidth,
        Long rxKilobytesPerSecond,
        Long txKilobytesPerSecond) {

    /** Nothing known: an older agent, the nvidia-smi fallback or a failed GPU. */
    public static final PcieSnapshot UNKNOWN = new PcieSnapshot(null, null, null, null, null, null);
}
