#pragma once

class AttentionLab;
class CharLmLab;
class MainWindow;
class SelfAttentionLab;
class Word2VecLab;

// Every lab of the workbench. A new lab is created and added in addLabs(), and its jobs are
// connected to the worker in TrainingController.
struct Labs {
    AttentionLab *attention = nullptr;
    SelfAttentionLab *selfAttention = nullptr;
    Word2VecLab *word2vec = nullptr;
    CharLmLab *charLm = nullptr;
};

// Adds the labs to `window` in tab order, connects what they share, and finishes its setup.
Labs addLabs(MainWindow *window);
