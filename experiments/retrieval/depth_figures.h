// The figures of retrieval accuracy by depth × length (stats/depth_accuracy.h), whatever the task:
// the depth × length heatmap (the needle-in-a-haystack standard figure) and accuracy against
// depth with its Wilson band and the chance level, one panel per length. kv and passkey eval
// give the titles and labels.
#pragma once

#include <string>
#include <vector>

#include "posbias/core/plot.h"
#include "posbias/stats/depth_accuracy.h"

namespace posbias {

// Depth (y) × length (x), accuracy colour 0..1.
Figure depth_heatmap_figure(const DepthAccuracy& accuracy, const std::string& title,
                            const std::string& depth_label);
// One panel per length titled panel_titles[l]; the chance series is titled chance_title.
Figure depth_curve_figure(const DepthAccuracy& accuracy,
                          const std::vector<std::string>& panel_titles,
                          const std::string& depth_label, const std::string& chance_title);

}  // namespace posbias
