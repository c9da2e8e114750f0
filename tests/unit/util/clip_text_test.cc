// ClipText: short text whole, long text cut at a character boundary.
#include "engine/util/clip_text.h"

#include <gtest/gtest.h>

#include <string>

namespace moreau {
namespace {

TEST(ClipText, ShortTextIsWhole) {
  EXPECT_EQ(ClipText("", 4), "");
  EXPECT_EQ(ClipText("abcd", 4), "abcd");
}

TEST(ClipText, LongTextIsCutAndMarked) { EXPECT_EQ(ClipText("abcdef", 4), "abcd…"); }

TEST(ClipText, CutNeverSplitsACharacter) {
  // "é" is two bytes (C3 A9), "€" three (E2 82 AC).
  EXPECT_EQ(ClipText("aé", 2), "a…");
  EXPECT_EQ(ClipText("aéb", 3), "aé…");
  EXPECT_EQ(ClipText("€€", 4), "€…");
  EXPECT_EQ(ClipText("€€", 5), "€…");
  EXPECT_EQ(ClipText("€x", 1), "…");
}

}  // namespace
}  // namespace moreau
