package dev.nvidb.config;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.yaml.snakeyaml.nodes.Node;
import org.yaml.snakeyaml.nodes.ScalarNode;

/** Reads a server's GPU placement allowlist from {@code gpus:} or its alias {@code gpu_ids:}. */
final class GpuList {

    private static final String EXAMPLE = "for example: gpus: [0, 1]  (or [] for CPU jobs only)";

    private GpuList() {
    }

    /** The listed indices; null when neither key is present (all GPUs). */
    static List<Integer> read(YamlSection section) {
        if (section.has("gpus") && section.has("gpu_ids")) {
            throw section.error(section.keyNode("gpu_ids"), "both 'gpus' and 'gpu_ids' are set (line "
                    + YamlDocument.line(section.keyNode("gpus")) + ")", "gpu_ids is an alias of gpus; keep only gpus");
        }
        String key = section.has("gpu_ids") ? "gpu_ids" : "gpus";
        Optional<Node> value = section.value(key);
        if (value.isEmpty()) {
            return null;
        }
        if (YamlSection.isNull(value.get())) {
            return null;
        }
        List<Integer> indices = new ArrayList<>();
        for (Node item : section.list(key, EXAMPLE).orElseThrow()) {
            int index = index(section, key, item);
            if (indices.contains(index)) {
                throw section.error(item, "'" + key + "' lists GPU " + index + " twice", EXAMPLE);
            }
            indices.add(index);
        }
        return indices;
    }

    private static int index(YamlSection section, String key, Node item) {
        if (item instanceof ScalarNode scalar && scalar.getValue().matches("[0-9]{1,4}")) {
            return Integer.parseInt(scalar.getValue());
        }
        throw section.error(item, "'" + key + "' must list GPU indices (integers of at least 0), got "
                + YamlSection.describe(item), EXAMPLE);
    }
}
